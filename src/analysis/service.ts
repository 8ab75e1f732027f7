import { GRAMS_MAX } from "../catalog/model";
import type { CatalogStore, NutrientDefinition } from "../catalog/store";
import { ENTRY_OVERHEAD_BYTES, LruCache, stringBytes } from "../platform/lru";
import { buildFoodIndex, type FoodIndex, type IndexedFood } from "./food-index";
import { gramsFor } from "./grams";
import { type ParsedLine, parseLines } from "./line";
import { type RankedFood, rankFoods } from "./match";
import { ALTERNATIVES_MAX, type AnalyzedLine, type AnalyzeResult, type FoodRef, type NutrientTotal, type SuggestResult } from "./model";
import type { AnalyzeRequest } from "./request";
import { suggest } from "./suggest";

/**
 * Recipe analysis (decisions §16): ingredient lines in, foods, grams and nutrient totals out, from the
 * embedded catalog alone. `createAnalysis` builds what every request shares once per process (the name
 * index, the nutrient list) with bounded caches; `analyzeRecipe` and `suggestFoods` are plain functions
 * over it, so that they run and are tested without a server.
 */
export interface Analysis {
  readonly index: FoodIndex;
  readonly nutrients: readonly NutrientDefinition[];
  /** A food's values per 100 g, by position in `nutrients` (NaN where it has none), read on demand and kept. */
  valuesOf(food: IndexedFood): Float64Array;
  /** The ranked foods of a line's words, kept: recipes repeat their words ("salt", "onion"). */
  ranked(key: string, compute: () => RankedFood[]): RankedFood[];
  /** Lines analysed, kept by their text: recipes repeat their lines ("1 tsp salt"). */
  readonly lines: LruCache<string, LineResult>;
  /** Whether a line not kept has been analysed before (recently): only then is it kept. */
  seenBefore(raw: string): boolean;
}

/**
 * Bounds of the caches, in bytes, keys included, so that no stream of distinct lines or foods grows memory:
 * ~1,500 foods' values (150 numbers each), ~4,000 word sets' matches, ~3,000 lines.
 */
const VALUES_CACHE_BYTES = 2 * 1024 * 1024;
const MATCH_CACHE_BYTES = 1024 * 1024;
const LINE_CACHE_BYTES = 2 * 1024 * 1024;
/** What a kept line costs beside its text: the item's objects and strings (a food's name, alternatives' names). */
const LINE_ENTRY_BYTES = 1024;
/** A ranked food's share of a cache entry: three numbers and the object around them. */
const RANKED_FOOD_BYTES = 64;
/**
 * The lines seen once, as a hash of their text in a table of this many slots (64 KB), each remembered until
 * another line takes its slot. A line is kept the second time it is analysed: one analysed only once (most,
 * in a stream of recipes nobody sends twice) would outlive a young collection in the cache and then die when
 * pushed out, garbage that waits for a whole collection, megabytes of it at hundreds of analyses a second.
 */
const SEEN_SLOTS = 1 << 14;

export function createAnalysis(store: CatalogStore): Analysis {
  const index = buildFoodIndex(store);
  const nutrients = store.nutrients();
  const slot = new Map(nutrients.map((n, i) => [n.number, i]));
  const values = new LruCache<number, Float64Array>(VALUES_CACHE_BYTES);
  const matches = new LruCache<string, RankedFood[]>(MATCH_CACHE_BYTES);
  const seen = new Uint32Array(SEEN_SLOTS);
  return {
    index,
    nutrients,
    lines: new LruCache<string, LineResult>(LINE_CACHE_BYTES),
    valuesOf(food) {
      let kept = values.get(food.id);
      if (kept === undefined) {
        kept = new Float64Array(nutrients.length).fill(Number.NaN);
        for (const { number, value } of store.nutrientValues(food.id)) {
          const at = slot.get(number);
          if (at !== undefined) kept[at] = value;
        }
        values.set(food.id, kept, kept.byteLength + ENTRY_OVERHEAD_BYTES);
      }
      return kept;
    },
    seenBefore(raw) {
      // Slot from the hash's low bits, the rest to tell lines apart (never 0, an empty slot's).
      const hash = Bun.hash.crc32(raw);
      const slot = hash & (SEEN_SLOTS - 1);
      const tag = (hash >>> 14) | 1;
      if (seen[slot] === tag) return true;
      seen[slot] = tag;
      return false;
    },
    ranked(key, compute) {
      let kept = matches.get(key);
      if (kept === undefined) {
        kept = compute();
        matches.set(key, kept, stringBytes(key) + kept.length * RANKED_FOOD_BYTES + ENTRY_OVERHEAD_BYTES);
      }
      return kept;
    },
  };
}

/** A line's food and grams, before the totals: the answer's item, and the food's values to add up. */
interface LineResult {
  readonly item: AnalyzedLine;
  readonly food: IndexedFood | undefined;
}

export function analyzeRecipe(analysis: Analysis, request: AnalyzeRequest): AnalyzeResult {
  const results = analyzeLines(analysis, request.lines);
  const wanted = request.nutrients === undefined ? undefined : new Set(request.nutrients);
  const listed = analysis.nutrients.map((n, at) => ({ n, at })).filter(({ n }) => wanted === undefined || wanted.has(n.number));

  const sums = new Float64Array(listed.length);
  const present = new Uint8Array(listed.length);
  let totalGrams = 0;
  for (const { item, food } of results) {
    if (item.status !== "matched" || food === undefined) continue;
    totalGrams += item.grams;
    const values = analysis.valuesOf(food);
    listed.forEach(({ at }, i) => {
      const value = values[at]!;
      if (Number.isNaN(value)) return;
      sums[i] = sums[i]! + (value * item.grams) / 100;
      present[i] = 1;
    });
  }
  const totalsFor = (divisor: number): NutrientTotal[] =>
    listed.map(({ n }, i) => ({
      number: n.number,
      name: n.name,
      unit: n.unit,
      value: present[i] ? roundTo(sums[i]! / divisor, n.decimals) : null,
    }));
  return {
    items: results.map((r) => r.item),
    servings: request.servings,
    totalGrams: roundTo(totalGrams, GRAMS_DECIMALS),
    totals: totalsFor(1),
    perServing: { grams: roundTo(totalGrams / request.servings, GRAMS_DECIMALS), nutrients: totalsFor(request.servings) },
  };
}

export function suggestFoods(analysis: Analysis, q: string, limit: number): SuggestResult {
  return { items: suggest(analysis.index, q, limit).map((position) => foodRef(analysis.index.foods[position]!)) };
}

/** Grams are reported to a tenth: SR28's portions are. */
const GRAMS_DECIMALS = 1;
const QUANTITY_DECIMALS = 3;

/** Each line's result, in order: kept ones as kept, the others read together and kept. */
function analyzeLines(analysis: Analysis, raws: readonly string[]): LineResult[] {
  const results: (LineResult | undefined)[] = raws.map((raw) => analysis.lines.get(raw));
  const fresh = raws.filter((_, i) => results[i] === undefined);
  if (fresh.length === 0) return results as LineResult[];
  const parsed = parseLines(
    fresh.map((raw) => raw.trim()),
    (phrase) => analysis.index.phrases.has(phrase),
  );
  let next = 0;
  return raws.map((raw, i) => {
    const kept = results[i];
    if (kept !== undefined) return kept;
    const result = analyzeLine(analysis, raw, parsed[next++]!);
    if (analysis.seenBefore(raw)) analysis.lines.set(raw, result, stringBytes(raw) + LINE_ENTRY_BYTES);
    return result;
  });
}

function analyzeLine(analysis: Analysis, raw: string, line: ParsedLine): LineResult {
  const { index } = analysis;
  const unmatched = (reason: "food" | "quantity" | "unit", rest: Partial<AnalyzedLine> = {}): LineResult => ({
    item: {
      line: raw,
      status: "unmatched",
      reason,
      quantity: line.quantity === null ? null : roundTo(line.quantity, QUANTITY_DECIMALS),
      unit: line.unit ?? line.unknownUnit,
      food: null,
      portion: null,
      grams: 0,
      confidence: 0,
      alternatives: [],
      ...rest,
    },
    food: undefined,
  });
  if (line.unreadable) return unmatched("food", { quantity: null, unit: null });

  const ranked = rankedFor(analysis, line);
  const first = ranked[0];
  if (first === undefined) return unmatched("food");
  const food = index.foods[first.position]!;
  const found = {
    food: foodRef(food),
    confidence: first.confidence,
    alternatives: ranked.slice(1, 1 + ALTERNATIVES_MAX).map((r) => foodRef(index.foods[r.position]!)),
  };
  if (line.quantity === null) return unmatched("quantity", found);
  // A portion that is one of the thing may name it as the line does, as the food's name begins, or as one
  // word ("sweetpotato, 5" long").
  const thingWords = new Set([...line.foodWords, ...food.traits.words.slice(0, 1), line.foodWords.join("")]);
  const converted = gramsFor(line, line.quantity, food.portions, thingWords);
  if (converted === undefined) return unmatched("unit", found);
  // An amount beyond any recipe's ("1e150 g", a hundred thousand eggs) is no amount to add up.
  if (!Number.isFinite(converted.grams) || converted.grams > GRAMS_MAX) return unmatched("quantity", { ...found, quantity: null });
  const grams = roundTo(converted.grams, GRAMS_DECIMALS);
  const portion = converted.portion && {
    seq: converted.portion.seq,
    amount: converted.portion.amount,
    description: converted.portion.description,
    grams: converted.portion.grams,
  };
  return {
    item: {
      line: raw,
      status: "matched",
      quantity: roundTo(line.size ? line.quantity * line.size.quantity : line.quantity, QUANTITY_DECIMALS),
      unit: line.size ? line.size.unit : line.unit ?? line.unknownUnit,
      ...found,
      portion,
      grams,
    },
    food,
  };
}

/** The line's foods, best first: the forced one (`#01001`) alone, else the matcher's, kept by the line's words. */
function rankedFor(analysis: Analysis, line: ParsedLine): RankedFood[] {
  if (line.forcedFoodNumber !== null) {
    const position = analysis.index.positionOf.get(line.forcedFoodNumber);
    if (position !== undefined) return [{ position, score: 0, confidence: 1 }];
  }
  const query = { foodWords: line.foodWords, lineWords: line.lineWords, states: line.states, canned: line.unit === "can" };
  if (query.foodWords.length === 0) return [];
  const key = JSON.stringify([query.foodWords, [...query.lineWords].sort(), query.states, query.canned]);
  return analysis.ranked(key, () => rankFoods(analysis.index, query, 1 + ALTERNATIVES_MAX));
}

const foodRef = (food: IndexedFood): FoodRef => ({ foodNumber: food.foodNumber, name: food.name });

/** `value` rounded half away from zero to `decimals` places, as the nearest double to that decimal. */
function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.sign(value) * (Math.round(Math.abs(value) * scale) / scale);
}
