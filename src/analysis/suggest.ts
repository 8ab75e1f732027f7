import leven from "leven";
import type { SearchOptions } from "minisearch";
import type { FoodIndex } from "./food-index";
import { plainFirstScore } from "./match";
import { wordKeys } from "./words";

/**
 * `GET /v1/foods/suggest` (decisions §16): names as a person types them. MiniSearch finds the names with
 * every word typed, the last one as a prefix (it is being typed), each within an edit or two ("chedar" finds
 * "cheddar", "brocoli" "broccoli"); the best of its matches are then put in the plain-first order of the
 * matcher: names whose words are fewer edits from what was typed first (leven), then the plain form
 * ("Broccoli, raw" before "Broccoli, frozen, chopped, cooked").
 */

/** The most edits a typed word may be from a name's (MiniSearch's `maxFuzzy`); a word met by none counts this. */
const FUZZY_MAX = 2;

/** How many of MiniSearch's best matches are put in plain-first order. */
const RERANKED = 300;

const OPTIONS: SearchOptions = {
  combineWith: "AND",
  prefix: (_term, i, terms) => i === terms.length - 1,
  fuzzy: (term) => (term.length >= 4 ? 0.25 : false),
  maxFuzzy: FUZZY_MAX,
};

/** The fewest edits from a typed key to a word of the name; the last key is being typed, so to a word's start too. */
function editsTo(key: string, terms: readonly string[], typing: boolean): number {
  let best = FUZZY_MAX;
  for (const term of terms) {
    best = Math.min(best, leven(key, term, { maxDistance: best }));
    if (typing && term.length > key.length) best = Math.min(best, leven(key, term.slice(0, key.length), { maxDistance: best }));
    if (best === 0) break;
  }
  return best;
}

export function suggest(index: FoodIndex, q: string, limit: number): number[] {
  const results = index.names.search(q, OPTIONS).slice(0, RERANKED);
  const queryKeys = wordKeys(q);
  const ranked = results.map((result) => {
    const position = result.id as number;
    const terms = new Set(result.terms);
    // How far the name's words are from what was typed, in edits: "chedar" is one from "cheddar", two from
    // "caesar", and the nearer comes first whatever else the names say.
    const edits = queryKeys.reduce((sum, key, i) => sum + editsTo(key, result.terms, i === queryKeys.length - 1), 0);
    return { position, key: edits * 100 + plainFirstScore(index.foods[position]!, terms) };
  });
  ranked.sort((a, b) => a.key - b.key || a.position - b.position);
  return ranked.slice(0, limit).map((r) => r.position);
}
