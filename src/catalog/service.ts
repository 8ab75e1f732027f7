import { LruCache } from "./lru";
import { matchesAllTerms, rankCandidates } from "./ranking";
import { parseSearchQuery, type SearchParams } from "./search-params";
import type { CatalogStore } from "./store";
import type { FoodDetail, FoodGroupList, FoodSearchItem, NutrientList, SearchResult } from "./model";

/** The trigram index needs three characters; shorter terms are checked on the candidates it returns. */
const TRIGRAM = 3;
/** Cached search answers hold at most this many items in all (references into shared objects: ~2 MB). */
const SEARCH_CACHE_ITEMS = 250_000;
/** Cached food details hold at most this many bytes of JSON. */
const DETAIL_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Answers are also kept as JSON text by their raw query string (bounded by bytes): a popular page is then
 * answered without parsing or serialising anything.
 */
const ANSWER_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * Name search. The catalog never changes while served, so the ordered matches of a (terms, group) pair
 * are computed once and kept in a bounded cache; a page is then a slice.
 */
export function createFoodSearch(store: CatalogStore) {
  const cache = new LruCache<string, readonly FoodSearchItem[]>(SEARCH_CACHE_ITEMS);
  const answers = new LruCache<string, string>(ANSWER_CACHE_BYTES);

  function orderedMatches(terms: readonly string[], group: string | undefined): readonly FoodSearchItem[] {
    if (terms.length === 0) return store.allCandidates(group).map(toItem);
    const indexable = terms.filter((term) => [...term].length >= TRIGRAM);
    const candidates =
      indexable.length > 0 ? store.candidatesMatching(toFtsPhrases(indexable), group) : store.allCandidates(group);
    // The index narrows; this check is the definition of a match (every term a substring of the name).
    return rankCandidates(candidates.filter((c) => matchesAllTerms(c.searchName, terms)), terms).map(toItem);
  }

  function search({ terms, group, page, limit }: SearchParams): SearchResult {
    const key = JSON.stringify([terms, group ?? null]);
    let matches = cache.get(key);
    if (!matches) {
      matches = orderedMatches(terms, group);
      cache.set(key, matches, matches.length + 1);
    }
    const offset = (page - 1) * limit;
    return { items: offset < matches.length ? matches.slice(offset, offset + limit) : [], total: matches.length, page, limit };
  }

  return {
    search,
    /** The answer to a query string (`q=chicken&limit=20`) as JSON text. Throws the 400 of a bad parameter. */
    jsonForQuery(rawQuery: string): string {
      let json = answers.get(rawQuery);
      if (json === undefined) {
        json = JSON.stringify(search(parseSearchQuery(rawQuery)));
        answers.set(rawQuery, json, json.length + rawQuery.length);
      }
      return json;
    },
  };
}

const toItem = ({ foodNumber, name }: FoodSearchItem): FoodSearchItem => ({ foodNumber, name });

/** Each term as a quoted FTS5 string, so no character of user text is FTS syntax. */
export function toFtsPhrases(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}

const FOOD_NUMBER = /^\d{5}$/;

/**
 * Food details, the most recently asked kept ready as JSON text (bounded by bytes): the answer for a
 * food is the same until the next build. Only the text is kept, not the objects it was made from.
 */
export function createFoodDetails(store: CatalogStore) {
  const cache = new LruCache<string, string>(DETAIL_CACHE_BYTES);
  let nutrientsByNumber: ReadonlyMap<string, { def: ReturnType<CatalogStore["nutrients"]>[number]; order: number }> | undefined;

  function build(foodNumber: string): string | null {
    const row = store.food(foodNumber);
    if (!row) return null;
    nutrientsByNumber ??= new Map(store.nutrients().map((def, order) => [def.number, { def, order }]));
    return JSON.stringify(toDetail(store, row, nutrientsByNumber));
  }

  return {
    /** The JSON of a food's detail; `nutrients` limits the list to those numbers (unknown ones are absent). */
    json(foodNumber: string, nutrients?: readonly string[]): string | null {
      if (!FOOD_NUMBER.test(foodNumber)) return null;
      let json = cache.get(foodNumber);
      if (json === undefined) {
        const built = build(foodNumber);
        if (built === null) return null;
        json = built;
        cache.set(foodNumber, json, json.length);
      }
      if (nutrients === undefined) return json;
      const wanted = new Set(nutrients);
      const detail = JSON.parse(json) as FoodDetail;
      return JSON.stringify({ ...detail, nutrients: detail.nutrients.filter((n) => wanted.has(n.number)) });
    },
  };
}

function toDetail(
  store: CatalogStore,
  food: NonNullable<ReturnType<CatalogStore["food"]>>,
  nutrientsByNumber: ReadonlyMap<string, { def: ReturnType<CatalogStore["nutrients"]>[number]; order: number }>,
): FoodDetail {
  const derivations = store.derivations();
  const values = store
    .nutrientValuesOf(food.id)
    .map((v) => ({ v, n: nutrientsByNumber.get(v.nutrientNumber)! }))
    .sort((a, b) => a.n.order - b.n.order);
  return {
    foodNumber: food.foodNumber,
    name: food.name,
    shortName: food.shortName,
    commonName: food.commonName,
    manufacturer: food.manufacturer,
    scientificName: food.scientificName,
    group: { code: food.groupCode, name: food.groupName },
    refuse: { percent: food.refusePercent, description: food.refuseDescription },
    factors: {
      nitrogen: food.nitrogenFactor,
      protein: food.proteinFactor,
      fat: food.fatFactor,
      carbohydrate: food.carbohydrateFactor,
    },
    nutrients: values.map(({ v, n }) => ({
      number: n.def.number,
      name: n.def.name,
      tag: n.def.tag,
      unit: n.def.unit,
      value: v.value,
      dataPoints: v.dataPoints,
      stdError: v.stdError,
      derivation: v.derivationCode === null ? null : { code: v.derivationCode, description: derivations.get(v.derivationCode) ?? "" },
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
