/**
 * Relevance order for name search (README "Search relevance"). SR28 names run from the general to the
 * particular ("Apples, raw, with skin"; "Cheese, cheddar"), and branded and restaurant items sit beside the
 * plain foods ("APPLEBEE'S, chili"). Lower keys first, compared in this order:
 *
 * 1. how the terms match: every term a whole word (a plural in `s` or `es` counts: `apple` is a whole
 *    word of "Apples", `tomato` of "Tomatoes") 0; every term at least starts a word 1; otherwise 2;
 * 2. plain food 0, branded or restaurant item 1 (see `isBranded`);
 * 3. the name's head: its leading comma-separated parts made only of query words, using every term
 *    ("Apples, raw" for `apple`; "Milk, whole, …" for `whole milk`) 0; using some terms ("Chicken,
 *    broilers or fryers, breast" for `chicken breast`) 1; a later part made only of query words ("Nuts,
 *    almonds" for `almonds`) 2; none 3;
 * 4. fewer comma-separated parts (the more general food);
 * 5. shorter name;
 * 6. food number, so the order is total.
 */

export interface Candidate {
  readonly foodNumber: string;
  readonly name: string;
  /** The folded name the terms were matched against. */
  readonly searchName: string;
  readonly groupCode: string;
  readonly manufacturer: string | null;
}

export function matchesAllTerms(searchName: string, terms: readonly string[]): boolean {
  return terms.every((term) => searchName.includes(term));
}

/** Fast foods and restaurant foods: SR28 groups 2100 and 3600. */
const RESTAURANT_GROUPS = new Set(["2100", "3600"]);
/** SR28 writes brand names in capitals ("LEAN POCKETS", "KELLOGG'S"); these capitalised words are not brands. */
const NOT_BRANDS = new Set(["USDA", "BBQ", "DHA", "ARA", "NFS"]);
const CAPITALISED_WORD = /\b[A-Z][A-Z'&.-]*[A-Z]\b/g;

/** A branded or restaurant item, as SR28 marks them: a manufacturer, a fast-food or restaurant group, or a brand in capitals. */
export function isBranded(food: Pick<Candidate, "name" | "groupCode" | "manufacturer">): boolean {
  if (food.manufacturer || RESTAURANT_GROUPS.has(food.groupCode)) return true;
  for (const word of food.name.match(CAPITALISED_WORD) ?? []) {
    if (word.replace(/[^A-Z]/g, "").length >= 3 && !NOT_BRANDS.has(word)) return true;
  }
  return false;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const isWordCharacter = (c: string | undefined) => c !== undefined && WORD_CHARACTER.test(c);

/** `word` is `term`, or its plural in `s` or `es` (a term always occurs in the name as written: `berry` is not in "berries"). */
function isFormOf(word: string, term: string): boolean {
  return word === term || word === `${term}s` || word === `${term}es`;
}

/** 0: the term is a whole word of `text` (or a plural of one); 1: it starts a word; 2: it is inside one. */
function termMatch(text: string, term: string): 0 | 1 | 2 {
  let best: 0 | 1 | 2 = 2;
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + 1)) {
    if (isWordCharacter(text[at - 1])) continue;
    let end = at + term.length;
    while (isWordCharacter(text[end])) end++;
    if (isFormOf(text.slice(at, end), term)) return 0;
    best = 1;
  }
  return best;
}

const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The terms a comma-separated part of a name is made of, or null when it has a word that is not one of them. */
function termsMaking(part: string, terms: readonly string[]): Set<string> | null {
  const partWords = words(part);
  if (partWords.length === 0) return null;
  const used = new Set<string>();
  for (const word of partWords) {
    const term = terms.find((t) => isFormOf(word, t));
    if (term === undefined) return null;
    used.add(term);
  }
  return used;
}

function headScore(parts: readonly string[], terms: readonly string[]): number {
  const used = new Set<string>();
  let leading = 0;
  for (; leading < parts.length; leading++) {
    const made = termsMaking(parts[leading]!, terms);
    if (made === null) break;
    for (const term of made) used.add(term);
  }
  if (leading > 0) return used.size === new Set(terms).size ? 0 : 1;
  return parts.some((part) => termsMaking(part, terms) !== null) ? 2 : 3;
}

/** The relevance key of a matching food (every term occurs in its name); lower ranks first. */
export function relevanceKey(candidate: Candidate, terms: readonly string[]): readonly number[] {
  const parts = candidate.searchName.split(",");
  return [
    Math.max(...terms.map((term) => termMatch(candidate.searchName, term))),
    isBranded(candidate) ? 1 : 0,
    headScore(parts, terms),
    parts.length,
    candidate.name.length,
  ];
}

export function rankCandidates<T extends Candidate>(candidates: readonly T[], terms: readonly string[]): T[] {
  const keyed = candidates.map((candidate) => ({ candidate, key: relevanceKey(candidate, terms) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i]! - b.key[i]!;
    return a.candidate.foodNumber < b.candidate.foodNumber ? -1 : a.candidate.foodNumber > b.candidate.foodNumber ? 1 : 0;
  });
  return keyed.map((k) => k.candidate);
}
