/**
 * Relevance order for name search (docs/api.md, "Search relevance"). SR28 names run from the general to the
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
function isBranded(food: Pick<Candidate, "name" | "groupCode" | "manufacturer">): boolean {
  if (food.manufacturer || RESTAURANT_GROUPS.has(food.groupCode)) return true;
  for (const word of food.name.match(CAPITALISED_WORD) ?? []) {
    if (word.replace(/[^A-Z]/g, "").length >= 3 && !NOT_BRANDS.has(word)) return true;
  }
  return false;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/** A letter or digit at `at` in `text` (false outside it); names and terms are folded (lower-case), so ASCII is a range check. */
function isWordCharacterAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (Number.isNaN(code)) return false;
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  return WORD_CHARACTER.test(text[at]!);
}

/**
 * The word `text[start, end)` is `term`, or its plural in `s` or `es` (a term always occurs in the name as
 * written: `berry` is not in "berries"). Read in place: ranking makes no strings.
 */
function isFormOf(text: string, start: number, end: number, term: string): boolean {
  if (!text.startsWith(term, start)) return false;
  const extra = end - start - term.length;
  return extra === 0 || (extra === 1 && text.charCodeAt(end - 1) === S) || (extra === 2 && text.startsWith("es", end - 2));
}
const S = "s".charCodeAt(0);

/** 0: the term is a whole word of `text` (or a plural of one); 1: it starts a word; 2: it is inside one. */
function termMatch(text: string, term: string): 0 | 1 | 2 {
  let best: 0 | 1 | 2 = 2;
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + 1)) {
    if (isWordCharacterAt(text, at - 1)) continue;
    let end = at + term.length;
    while (isWordCharacterAt(text, end)) end++;
    if (isFormOf(text, at, end, term)) return 0;
    best = 1;
  }
  return best;
}

const NOT_WORD = /[^\p{L}\p{N}]+/u;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What ranking needs of each food that no query changes, by position in the food index (food-number order). */
export interface RankingTraits {
  /** 1 for a branded or restaurant item (`isBranded`). */
  readonly branded: Uint8Array;
  /** The folded name's comma-separated parts, at most 255. */
  readonly partCount: Uint8Array;
  /** The name's length, at most 65,535. */
  readonly nameLength: Uint16Array;
}

export function rankingTraits(candidates: readonly Candidate[]): RankingTraits {
  const traits = {
    branded: new Uint8Array(candidates.length),
    partCount: new Uint8Array(candidates.length),
    nameLength: new Uint16Array(candidates.length),
  };
  candidates.forEach((candidate, position) => {
    traits.branded[position] = isBranded(candidate) ? 1 : 0;
    traits.partCount[position] = Math.min(candidate.searchName.split(",").length, 255);
    traits.nameLength[position] = Math.min(candidate.name.length, 65_535);
  });
  return traits;
}

/**
 * Positions are below this (food ids are at most 99999, and the index has one position per food), so a
 * relevance key times it plus the position is one number that orders by key, then food number: the largest
 * key is below 2^29, the product far below 2^53.
 */
const POSITION_LIMIT = 100_000;

/**
 * `positions` (foods whose folded name contains every term) in relevance order, ties in food-number order.
 * Each food's key is one number and the sort a numeric one, and the names are read in place: ranking a
 * common term's thousands of matches makes no object, array or string per food, which under a mix of
 * distinct searches was most of the garbage a worker made.
 */
export function rankPositions(positions: Int32Array, terms: readonly string[], candidates: readonly Candidate[], traits: RankingTraits): Int32Array {
  const headScore = headScorer(terms);
  const keyed = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    const searchName = candidates[position]!.searchName;
    let match = 0;
    for (const term of terms) match = Math.max(match, termMatch(searchName, term));
    // The keys packed into one integer, most significant first (each field within its width).
    const key = (((match * 2 + traits.branded[position]!) * 4 + headScore(searchName)) * 256 + traits.partCount[position]!) * 65_536 + traits.nameLength[position]!;
    keyed[i] = key * POSITION_LIMIT + position;
  }
  keyed.sort();
  return Int32Array.from(keyed, (k) => k % POSITION_LIMIT);
}

/**
 * The name's head (key 3 of the order above) for one query's terms: 0 when its leading comma-separated parts
 * are made only of query words and use every term, 1 when they use some, 2 when only a later part is, 3
 * when none is. A part "made only of query words" has every word a term or a term's plural; terms with a
 * character that is not a letter or digit are never a word, so they take no part.
 */
function headScorer(terms: readonly string[]): (searchName: string) => number {
  const wordTerms = [...new Set(terms)].filter((term) => !NOT_WORD.test(term));
  const distinctTerms = new Set(terms).size;
  if (wordTerms.length === 0) return () => 3;
  const word = wordTerms.map((term) => `${escaped(term)}(?:e?s)?`).join("|");
  // One part, matched in place from its start (sticky) to the next comma or the end: the separators exclude
  // the comma, so a match never runs into the next part.
  const part = new RegExp(`[^\\p{L}\\p{N},]*(?:${word})(?:[^\\p{L}\\p{N},]+(?:${word}))*[^\\p{L}\\p{N},]*(?=,|$)`, "uy");
  const madeOfTerms = (text: string, start: number) => {
    part.lastIndex = start;
    return part.test(text);
  };
  const used = new Uint8Array(wordTerms.length);

  /** Whether the words of `text[0, end)` (all query words) use every distinct term: each word counts for the first term it is a form of. */
  const usesEveryTerm = (text: string, end: number) => {
    if (wordTerms.length < distinctTerms) return false;
    used.fill(0);
    for (let at = 0; at < end; ) {
      if (!isWordCharacterAt(text, at)) {
        at++;
        continue;
      }
      let wordEnd = at + 1;
      while (wordEnd < end && isWordCharacterAt(text, wordEnd)) wordEnd++;
      const t = wordTerms.findIndex((term) => isFormOf(text, at, wordEnd, term));
      if (t >= 0) used[t] = 1;
      at = wordEnd;
    }
    return used.every((u) => u === 1);
  };

  return (searchName) => {
    // The leading parts made of query words: where the first part that is not ends (or the name does).
    let start = 0;
    while (start <= searchName.length && madeOfTerms(searchName, start)) {
      const comma = searchName.indexOf(",", start);
      start = comma === -1 ? searchName.length + 1 : comma + 1;
    }
    if (start > 0) return usesEveryTerm(searchName, start - 1) ? 0 : 1;
    for (let at = searchName.indexOf(","); at !== -1; at = searchName.indexOf(",", at + 1)) {
      if (madeOfTerms(searchName, at + 1)) return 2;
    }
    return 3;
  };
}
