import type { FoodIndex, IndexedFood } from "./food-index";
import { DEFAULT_FOODS } from "./default-foods";
import { BABY_FOOD_PENALTY } from "./name-traits";
import { LEGUMES_GROUP, POWDER_OF_SPICE, SOFT_WORDS, SPICES_GROUP, STATES } from "./vocabulary";

/**
 * Which SR28 food a line's words name (decisions §16). Every word of the line that names the food must be
 * in the food's name (as a key: singular, folded), except the soft ones that only narrow it ("yellow
 * onion"); a state the line names (cooked, canned, …) must be in it too. Among the foods that qualify, the
 * plain form comes first: a name that adds only words like "raw", "granulated", "salted" to the line's,
 * whose first part is made of the line's words, that is not branded, prepared or processed beyond what the
 * line says, then the shorter. A word no SR28 name has is corrected to the nearest that one has, within an
 * edit or two; without one the line names no food we know ("unicorn tears", "xanthan gum").
 */

export interface FoodQuery {
  /** Keys of the words naming the food. */
  readonly foodWords: readonly string[];
  /** Every key of the line: a name's word among them adds nothing. */
  readonly lineWords: ReadonlySet<string>;
  /** States the name must have (keys of STATES). */
  readonly states: readonly string[];
  /** The line speaks of a can: canned forms first. */
  readonly canned: boolean;
}

export interface RankedFood {
  readonly position: number;
  readonly score: number;
  /** In [0, 1]: how surely this is the food the line means. */
  readonly confidence: number;
}

/** The best foods for the query, best first (at most `limit`); empty when no food qualifies. */
export function rankFoods(index: FoodIndex, query: FoodQuery, limit: number): RankedFood[] {
  const ranked = rankAsSaid(index, query, limit);
  if (ranked.length > 0 || !query.foodWords.includes(POWDER_OF_SPICE)) return ranked;
  // "cumin powder" is what SR28 names "Spices, cumin seed" (its portions "tsp, ground"): where no name
  // has the word, it says ground.
  const foodWords = query.foodWords.filter((word) => word !== POWDER_OF_SPICE);
  return foodWords.length === 0 ? [] : rankAsSaid(index, { ...query, foodWords, lineWords: new Set([...query.lineWords, "ground"]), states: [...new Set([...query.states, "ground"])] }, limit);
}

function rankAsSaid(index: FoodIndex, query: FoodQuery, limit: number): RankedFood[] {
  const resolved = resolveWords(index, query.foodWords);
  if (resolved === undefined) return [];
  const { hard, soft, corrected, words } = resolved;
  // A can says canned as the word would.
  const lineWords = new Set([...query.lineWords, ...hard, ...soft, ...(query.canned ? ["canned"] : [])]);
  const candidates = intersect(hard.map((word) => index.postings.get(word)!));
  // A soft word no candidate has narrows nothing: "new potatoes" are the potatoes a cook means by "potatoes".
  const idle = new Set(soft.filter((word) => !candidates.some((position) => index.foods[position]!.traits.words.includes(word))));
  // The default is looked up by the words as corrected: "mozarella" is the mozzarella a cook means.
  const preferred = defaultFood(index, { ...query, foodWords: words }) ?? (idle.size > 0 ? defaultFood(index, { ...query, foodWords: words.filter((word) => !idle.has(word)) }) : undefined);
  // The best `limit + 1` (one more, to know how close the runner-up is), kept in order as the candidates
  // are scored: a word as common as "salt" has thousands, and sorting them all would be wasted.
  const keep = limit + 1;
  const best: Scored[] = [];
  for (const position of candidates) {
    const food = index.foods[position]!;
    if (position === preferred || !query.states.every((state) => hasState(food, state))) continue;
    const { score, quality } = scoreFood(food, soft, lineWords, query.canned);
    if (best.length === keep && score >= best[keep - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score > score) at--;
    best.splice(at, 0, { position, score, quality: quality + corrected * 0.2 });
    if (best.length > keep) best.pop();
  }
  // The food a cook means by a bare name (default-foods.ts) goes first, sure.
  if (preferred !== undefined) best.unshift({ position: preferred, score: 0, quality: 0 });

  const ranked = best.slice(0, limit).map((s, i) => {
    let confidence = Math.max(0.05, Math.min(0.98, 0.98 - s.quality - (i === 0 && preferred !== undefined ? 0.03 : 0)));
    // A close runner-up makes the first less sure.
    const next = best[i + 1];
    if (i === 0 && preferred === undefined && next && next.score - s.score < 0.25) confidence *= 0.9;
    return { position: s.position, score: s.score, confidence: Math.round(confidence * 100) / 100 };
  });
  // Nothing close enough: the line names a food SR28 does not have ("1 cup ice" is not "Ice creams").
  return ranked.length > 0 && ranked[0]!.confidence >= CONFIDENCE_MIN ? ranked : [];
}

interface Scored {
  readonly position: number;
  readonly score: number;
  readonly quality: number;
}

/**
 * The position of the food default-foods.ts gives for the line's states and words, if any. A can says
 * canned as a word would ("1 (14.5 oz) can diced tomatoes" is "canned tomato"), and a can's food is never
 * a fresh one ("1 can tuna" is the default tuna only because that is canned).
 */
function defaultFood(index: FoodIndex, query: FoodQuery): number | undefined {
  const keys = [query.states];
  if (query.canned && !query.states.includes("canned")) keys.unshift([...query.states, "canned"]);
  for (const states of keys) {
    const foodNumber = DEFAULT_FOODS[[...states].sort().concat(query.foodWords).join(" ")];
    const position = foodNumber === undefined ? undefined : index.positionOf.get(foodNumber);
    if (position === undefined) continue;
    if (query.canned && !index.foods[position]!.traits.words.includes("canned")) return undefined;
    return position;
  }
  return undefined;
}

/** Below this, the best food is too far from the line's words to be the food it means. */
const CONFIDENCE_MIN = 0.5;

/**
 * The line's food words split into those a name must have (hard) and those that only narrow (soft), each
 * a word some SR28 name has: a misspelt one corrected, an unknown soft one dropped. Undefined when a word
 * that names the food is in no SR28 name, nor near one.
 */
function resolveWords(index: FoodIndex, words: readonly string[]): { hard: string[]; soft: string[]; corrected: number; words: string[] } | undefined {
  const hard: string[] = [];
  const soft: string[] = [];
  /** The line's food words in order, as known: corrected, unknown soft ones left out. */
  const known: string[] = [];
  let corrected = 0;
  for (const word of words) {
    const isSoft = SOFT_WORDS.has(word);
    let key: string | undefined = index.postings.has(word) ? word : undefined;
    if (key === undefined && !isSoft) {
      key = index.nearestWords(word)[0];
      if (key !== undefined) corrected++;
    }
    if (key === undefined) {
      if (isSoft) continue;
      return undefined;
    }
    (isSoft ? soft : hard).push(key);
    known.push(key);
  }
  // A line of soft words only ("1 cup white") must have them all.
  if (hard.length === 0) return soft.length === 0 ? undefined : { hard: soft, soft: [], corrected, words: known };
  return { hard: [...new Set(hard)], soft: [...new Set(soft)], corrected, words: known };
}

function hasState(food: IndexedFood, state: string): boolean {
  if (state === "ground" && food.groupCode === SPICES_GROUP) return true;
  // The spices group's foods are dried unless their name says fresh ("Spices, pepper, red or cayenne").
  if (state === "dried" && food.groupCode === SPICES_GROUP && !food.traits.words.includes("fresh")) return true;
  // Pulses are sold dried: SR28 names them "mature seeds, raw" ("Lentils, pink or red, raw").
  if (state === "dried" && food.groupCode === LEGUMES_GROUP && food.traits.words.includes("raw")) return true;
  return (STATES[state] ?? [state]).some((word) => food.traits.words.includes(word));
}

/**
 * A food's score for the query (lower is better) and how far it is from the food the line means (`quality`:
 * 0 for a name that adds only plain words to the line's), from its traits (name-traits.ts) and the line's
 * words alone.
 */
function scoreFood(food: IndexedFood, soft: readonly string[], lineWords: ReadonlySet<string>, canned = false): { score: number; quality: number } {
  const { traits } = food;
  let score = traits.baseScore;
  let quality = traits.baseQuality;
  let headNamesLine = false;
  for (const word of lineWords) {
    const at = traits.words.indexOf(word);
    if (at === -1) continue;
    score -= traits.wordScore[at]!;
    quality -= traits.wordQuality[at]!;
    if (traits.inHead[at]) headNamesLine = true;
  }
  for (const word of soft) {
    if (traits.words.includes(word)) continue;
    score += 1.5;
    quality += 0.12;
  }
  // The name's head says what the food is: the line's words there, or only a category ("Spices, cumin
  // seed", "Nuts, almonds"); a line word found only further on qualifies another food ("Fat, chicken").
  if (headNamesLine) score -= 1;
  else if (!traits.heavyHead.every((word) => lineWords.has(word))) {
    score += 3;
    quality += 0.1;
  }
  if (traits.baby && (lineWords.has("baby") || lineWords.has("babyfood"))) score -= BABY_FOOD_PENALTY;
  // A can's food is best a canned one, though the line does not say the word.
  if (canned && traits.words.includes("canned")) score -= 1.5;
  return { score, quality: Math.max(0, quality) };
}

/** The plain-first order alone (lower first), for foods that all have `words`: suggestions' order. */
export const plainFirstScore = (food: IndexedFood, words: ReadonlySet<string>): number => scoreFood(food, [], words).score;

/** The positions in every list (each ascending). */
function intersect(lists: readonly Int32Array[]): Int32Array {
  if (lists.length === 0) return new Int32Array(0);
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let result = sorted[0]!;
  for (const list of sorted.slice(1)) {
    const members = new Set(list);
    result = result.filter((position) => members.has(position));
  }
  return result;
}
