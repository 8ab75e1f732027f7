import type { SearchOptions } from "minisearch";
import type { FoodIndex } from "./food-index";
import { plainFirstScore } from "./match";
import { wordKeys } from "./words";

/**
 * `GET /v1/foods/suggest` (decisions §16): names as a person types them. MiniSearch finds the names with
 * every word typed, the last one as a prefix (it is being typed), each within an edit or two ("chedar" finds
 * "cheddar", "brocoli" "broccoli"); the best of its matches are then put in the plain-first order of the
 * matcher: names whose words were typed as written before those found through a correction, then the
 * plain form ("Broccoli, raw" before "Broccoli, frozen, chopped, cooked").
 */

/** How many of MiniSearch's best matches are put in plain-first order. */
const RERANKED = 300;

const OPTIONS: SearchOptions = {
  combineWith: "AND",
  prefix: (_term, i, terms) => i === terms.length - 1,
  fuzzy: (term) => (term.length >= 4 ? 0.25 : false),
  maxFuzzy: 2,
};

export function suggest(index: FoodIndex, q: string, limit: number): number[] {
  const results = index.names.search(q, OPTIONS).slice(0, RERANKED);
  const queryKeys = wordKeys(q);
  const ranked = results.map((result) => {
    const position = result.id as number;
    const terms = new Set(result.terms);
    // Query words met only through a correction count against the name.
    const corrected = queryKeys.filter((key) => !result.terms.some((term) => term.startsWith(key))).length;
    return { position, key: corrected * 100 + plainFirstScore(index.foods[position]!, terms) };
  });
  ranked.sort((a, b) => a.key - b.key || a.position - b.position);
  return ranked.slice(0, limit).map((r) => r.position);
}
