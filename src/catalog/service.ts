import { LruCache } from "./lru";
import { matchesAllTerms, rankCandidates } from "./ranking";
import type { SearchParams } from "./search-params";
import type { CatalogStore } from "./store";
import type { FoodDetail, FoodGroupList, FoodSearchItem, NutrientList, SearchResult } from "./model";

/** The trigram index needs three characters; shorter terms are checked on the candidates it returns. */
const TRIGRAM = 3;
/** Cached search answers hold at most this many items in all (references into shared objects: ~2 MB). */
const SEARCH_CACHE_ITEMS = 250_000;
/** Cached food details hold at most this many bytes of JSON. */
const DETAIL_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Name search. The catalog never changes while served, so the ordered matches of a (terms, group) pair
 * are computed once and kept in a bounded cache; a page is then a slice.
 */
export function createFoodSearch(store: CatalogStore) {
  const cache = new LruCache<string, readonly FoodSearchItem[]>(SEARCH_CACHE_ITEMS);

  function orderedMatches(terms: readonly string[], group: string | undefined): readonly FoodSearchItem[] {
    if (terms.length === 0) return store.allCandidates(group).map(toItem);
    const indexable = terms.filter((term) => [...term].length >= TRIGRAM);
    const candidates =
      indexable.length > 0 ? store.candidatesMatching(toFtsPhrases(indexable), group) : store.allCandidates(group);
    // The index narrows; this check is the definition of a match (every term a substring of the name).
    return rankCandidates(candidates.filter((c) => matchesAllTerms(c.searchName, terms)), terms).map(toItem);
  }

  return function searchFoods({ terms, group, page, limit }: SearchParams): SearchResult {
    const key = JSON.stringify([terms, group ?? null]);
    let matches = cache.get(key);
    if (!matches) {
      matches = orderedMatches(terms, group);
      cache.set(key, matches, matches.length + 1);
    }
    const offset = (page - 1) * limit;
    return { items: offset < matches.length ? matches.slice(offset, offset + limit) : [], total: matches.length, page, limit };
  };
}

const toItem = ({ foodNumber, name }: FoodSearchItem): FoodSearchItem => ({ foodNumber, name });

/** Each term as a quoted FTS5 string, so no character of user text is FTS syntax. */
export function toFtsPhrases(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}

const FOOD_NUMBER = /^\d{5}$/;

/**
 * Food details, with the most recently asked kept ready as JSON (bounded by bytes): the answer for a
 * food is the same until the next build.
 */
export function createFoodDetails(store: CatalogStore) {
  const cache = new LruCache<string, { detail: FoodDetail; json: string }>(DETAIL_CACHE_BYTES);

  function load(foodNumber: string): { detail: FoodDetail; json: string } | null {
    if (!FOOD_NUMBER.test(foodNumber)) return null;
    const cached = cache.get(foodNumber);
    if (cached) return cached;
    const row = store.food(foodNumber);
    if (!row) return null;
    const detail = toDetail(store, row);
    const entry = { detail, json: JSON.stringify(detail) };
    cache.set(foodNumber, entry, entry.json.length);
    return entry;
  }

  return {
    /** The JSON of a food's detail; `nutrients` limits the list to those numbers (unknown ones are absent). */
    json(foodNumber: string, nutrients?: readonly string[]): string | null {
      const entry = load(foodNumber);
      if (!entry || nutrients === undefined) return entry?.json ?? null;
      const wanted = new Set(nutrients);
      return JSON.stringify({ ...entry.detail, nutrients: entry.detail.nutrients.filter((n) => wanted.has(n.number)) });
    },
  };
}

function toDetail(store: CatalogStore, { food, groupName }: NonNullable<ReturnType<CatalogStore["food"]>>): FoodDetail {
  return {
    foodNumber: food.foodNumber,
    name: food.name,
    shortName: food.shortName,
    commonName: food.commonName,
    manufacturer: food.manufacturer,
    scientificName: food.scientificName,
    group: { code: food.groupCode, name: groupName },
    refuse: { percent: food.refusePercent, description: food.refuseDescription },
    factors: {
      nitrogen: food.nitrogenFactor,
      protein: food.proteinFactor,
      fat: food.fatFactor,
      carbohydrate: food.carbohydrateFactor,
    },
    nutrients: store.nutrientValuesOf(food.id).map(({ derivationCode, derivationDescription, ...value }) => ({
      ...value,
      derivation: derivationCode === null ? null : { code: derivationCode, description: derivationDescription ?? "" },
    })),
    portions: store.portionsOf(food.id),
    footnotes: store.footnotesOf(food.id),
  };
}

/** `?nutrients=203,204`: numbers separated by commas; blanks dropped. */
export function parseNutrientFilter(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  return raw.split(",").map((n) => n.trim()).filter(Boolean);
}

export function listFoodGroups(store: CatalogStore): FoodGroupList {
  return { items: store.foodGroups() };
}

export function listNutrients(store: CatalogStore): NutrientList {
  return {
    items: store.nutrients().map((n) => ({
      number: n.number, name: n.name, unit: n.unit, tag: n.tag, decimals: n.decimals, order: n.srOrder,
    })),
  };
}
