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
/** A letter or digit; names and terms are folded (lower-case), so ASCII is a range check. */
function isWordCharacter(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  return WORD_CHARACTER.test(c);
}

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

const NOT_WORD = /[^\p{L}\p{N}]+/u;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The relevance key of a matching food (every term occurs in its name), for one query's terms: lower ranks first. */
export function relevanceKeys(terms: readonly string[]) {
  // A comma-separated part "made only of query words": every word of it a term or a term's plural. Terms
  // with a character that is not a letter or digit are never a word, so they take no part.
  const wordTerms = [...new Set(terms)].filter((term) => !NOT_WORD.test(term));
  const word = wordTerms.map((term) => `${escaped(term)}(?:e?s)?`).join("|");
  const madeOfTerms = wordTerms.length === 0 ? /(?!)/ : new RegExp(`^[^\\p{L}\\p{N}]*(?:${word})(?:[^\\p{L}\\p{N}]+(?:${word}))*[^\\p{L}\\p{N}]*$`, "u");
  const distinctTerms = new Set(terms).size;

  function headScore(parts: readonly string[]): number {
    let leading = 0;
    while (leading < parts.length && madeOfTerms.test(parts[leading]!)) leading++;
    if (leading > 0) {
      const used = new Set<string>();
      for (const part of parts.slice(0, leading)) {
        for (const w of part.split(NOT_WORD)) if (w) used.add(wordTerms.find((term) => isFormOf(w, term))!);
      }
      return used.size === distinctTerms ? 0 : 1;
    }
    return parts.some((part) => madeOfTerms.test(part)) ? 2 : 3;
  }

  return (candidate: Candidate): number => {
    const parts = candidate.searchName.split(",");
    let match = 0;
    for (const term of terms) match = Math.max(match, termMatch(candidate.searchName, term));
    // The keys packed into one integer, most significant first (each field within its width; far below 2^53).
    const key = [match, isBranded(candidate) ? 1 : 0, headScore(parts), Math.min(parts.length, 255), Math.min(candidate.name.length, 65_535)];
    return (((key[0]! * 2 + key[1]!) * 4 + key[2]!) * 256 + key[3]!) * 65_536 + key[4]!;
  };
}

export function rankCandidates<T extends Candidate>(candidates: readonly T[], terms: readonly string[]): T[] {
  const keyOf = relevanceKeys(terms);
  const keyed = candidates.map((candidate) => ({ candidate, key: keyOf(candidate) }));
  keyed.sort(
    (a, b) =>
      a.key - b.key ||
      (a.candidate.foodNumber < b.candidate.foodNumber ? -1 : a.candidate.foodNumber > b.candidate.foodNumber ? 1 : 0),
  );
  return keyed.map((k) => k.candidate);
}
