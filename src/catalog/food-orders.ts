import { ENTRY_OVERHEAD_BYTES, LruCache } from "../platform/lru";
import type { FoodSearchItem } from "./model";
import { type Candidate, type RankingTraits, rankingTraits } from "./ranking";
import type { CatalogStore } from "./store";

/**
 * The orders a search can be sorted by, over food *positions* (0 … foods − 1, in food-number order): by
 * food number, by name, by a nutrient's value. A sorted or filtered search marks its matching positions
 * and walks one of these orders, keeping the marked ones, so it never sorts (and never scans
 * `nutrient_values`: a nutrient's order was prepared by the importer and is one row).
 */

export interface FoodIndex {
  /** Every food as a search candidate, by position (food-number order): read once, shared by every search. */
  readonly candidates: readonly Candidate[];
  /** The search item of each position. */
  readonly items: readonly FoodSearchItem[];
  /** Each position's food group code. */
  readonly groups: readonly string[];
  readonly positionOf: ReadonlyMap<string, number>;
  /** The position of a food id (NDB_No as an integer, at most 99999); -1 for no food. */
  readonly positionOfId: Int32Array;
  /** What relevance ranking needs of each position that no query changes. */
  readonly traits: RankingTraits;
}

/** One nutrient's values by position, and the positions that have one in value order. */
export interface NutrientColumn {
  /** The value per 100 g at a position; NaN where the food has none. */
  valueAt(position: number): number;
  /** Positions with a value, by value ascending, then position. */
  readonly ascending: Int32Array;
  /**
   * Visits the positions with a value by value descending, ties in food-number order: the runs of equal
   * values of `ascending`, from the top. Walked in place, so no column keeps a second order.
   */
  forEachDescending(visit: (position: number) => void): void;
  /** The positions whose value lies in [min, max] (either bound absent), in ascending order. */
  between(min: number | undefined, max: number | undefined): Int32Array;
}

/**
 * Columns kept decoded, bounded by bytes: each is the importer's row as read (4 + 8 bytes per food with the
 * nutrient) and 2 bytes per food for the way back from a position, ~11 MB for all 150 nutrients. The bound
 * holds them all, so a worker decodes each nutrient once: a smaller one made a mix of nutrient searches
 * decode over and over, and the freed arrays kept the process's memory well above the columns themselves
 * (figures: docs/performance.md).
 */
const NUTRIENT_COLUMN_CACHE_BYTES = 16 * 1024 * 1024;

export function createFoodOrders(store: CatalogStore) {
  let index: FoodIndex | undefined;
  let nameOrders: { ascending: Int32Array; descending: Int32Array } | undefined;
  const columns = new LruCache<string, NutrientColumn>(NUTRIENT_COLUMN_CACHE_BYTES);

  const indexed = () => {
    if (!index) {
      const candidates = store.allCandidates();
      // By food id (NDB_No as an integer, at most 99999): 400 KB, and the fastest lookup there is.
      const positionOfId = new Int32Array(100_000).fill(-1);
      candidates.forEach((c, position) => (positionOfId[Number(c.foodNumber)] = position));
      index = {
        candidates,
        // One search item per food, listed by every page that shows it.
        items: candidates.map(({ foodNumber, name }) => ({ foodNumber, name })),
        groups: candidates.map((c) => c.groupCode),
        positionOf: new Map(candidates.map((c, position) => [c.foodNumber, position])),
        positionOfId,
        traits: rankingTraits(candidates),
      };
    }
    return index;
  };
  const foods = (): FoodIndex => indexed();

  return {
    foods,

    /** Positions by name, compared case- and diacritic-insensitively (the folded name), then food number. */
    byName(descending: boolean): Int32Array {
      if (!nameOrders) {
        const names = indexed().candidates.map((c) => c.searchName);
        const byName = (direction: 1 | -1) =>
          Int32Array.from(names.keys()).sort((a, b) => (names[a]! < names[b]! ? -direction : names[a]! > names[b]! ? direction : a - b));
        nameOrders = { ascending: byName(1), descending: byName(-1) };
      }
      return descending ? nameOrders.descending : nameOrders.ascending;
    },

    /** A nutrient's column; undefined for a number that is not a nutrient. */
    nutrient(number: string): NutrientColumn | undefined {
      let column = columns.get(number);
      if (column) return column;
      const ranking = store.nutrientRanking(number);
      if (!ranking) return undefined;
      const { items, positionOfId } = indexed();
      // The row's arrays are the column: its food ids become positions in place, its values stay in value
      // order, and each position finds its value through its rank. Copied into new arrays, the row was as
      // much garbage again as the column, made by every worker for every nutrient it was first asked for.
      const ascending = ranking.foodIds;
      const rankOf = items.length < 0xffff ? new Uint16Array(items.length) : new Int32Array(items.length);
      for (let i = 0; i < ascending.length; i++) {
        const position = positionOfId[ascending[i]!]!;
        ascending[i] = position;
        rankOf[position] = i + 1;
      }
      column = nutrientColumn(ascending, ranking.values, rankOf);
      columns.set(number, column, rankOf.byteLength + ascending.byteLength + ranking.values.byteLength + ENTRY_OVERHEAD_BYTES);
      return column;
    },
  };
}

/** `values[i]` is the value at `ascending[i]`; `rankOf[position]` is 1 + its index there, 0 for no value. */
function nutrientColumn(ascending: Int32Array, values: Float64Array, rankOf: Uint16Array | Int32Array): NutrientColumn {
  /** The first index in `ascending` whose value is at least (or, `strict`, above) `bound`. */
  const firstFrom = (bound: number, strict: boolean) => {
    let low = 0;
    let high = ascending.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (strict ? values[middle]! <= bound : values[middle]! < bound) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return {
    valueAt(position) {
      const rank = rankOf[position]!;
      return rank === 0 ? Number.NaN : values[rank - 1]!;
    },
    ascending,
    forEachDescending(visit) {
      for (let end = ascending.length; end > 0; ) {
        let start = end - 1;
        while (start > 0 && values[start - 1] === values[end - 1]) start--;
        for (let i = start; i < end; i++) visit(ascending[i]!);
        end = start;
      }
    },
    between(min, max) {
      return ascending.subarray(min === undefined ? 0 : firstFrom(min, false), max === undefined ? ascending.length : firstFrom(max, true));
    },
  };
}
