import type { ZstdJson } from "../http/content-encoding";
import { ENTRY_OVERHEAD_BYTES, LruCache, stringBytes } from "../lru";
import { matchesAllTerms, rankCandidates } from "./ranking";
import { parseSearchQuery, type SearchParams } from "./search-params";
import type { CatalogStore } from "./store";
import type { FoodDetail, FoodGroupList, FoodSearchItem, NutrientList, SearchResult } from "./model";

/** The trigram index needs three characters; shorter terms are checked on the candidates it returns. */
const TRIGRAM = 3;
/**
 * Ordered matches kept per (terms, group): references to shared item objects, 8 bytes each, plus the key.
 * Every cache here is bounded in bytes, keys included, so no stream of distinct queries can grow memory.
 */
const SEARCH_CACHE_BYTES = 4 * 1024 * 1024;
const REFERENCE_BYTES = 8;
/** Decompressed food details kept: at most this many bytes of JSON. */
const DETAIL_CACHE_BYTES = 4 * 1024 * 1024;

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
  const cache = new LruCache<string, readonly FoodSearchItem[]>(SEARCH_CACHE_BYTES);
  // One item object per food, shared by every cached answer that lists it.
  const items = new Map<string, FoodSearchItem>();
  const toItem = ({ foodNumber, name }: FoodSearchItem): FoodSearchItem => {
    let item = items.get(foodNumber);
    if (!item) items.set(foodNumber, (item = { foodNumber, name }));
    return item;
  };
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
      if (matches.length > 0) cache.set(key, matches, REFERENCE_BYTES * matches.length + stringBytes(key) + ENTRY_OVERHEAD_BYTES);
    }
    const offset = (page - 1) * limit;
    return { items: offset < matches.length ? matches.slice(offset, offset + limit) : [], total: matches.length, page, limit };
  }

  return {
    /** The answer to a query string (`q=chicken&limit=20`) as JSON text. Throws the 400 of a bad parameter. */
    jsonForQuery(rawQuery: string): string {
      let json = answers.get(rawQuery);
      if (json !== undefined) return json;
      const params = parseSearchQuery(rawQuery);
      // Junk that cannot match touches no cache: it would only push real answers out.
      if (params.matchesNothing) return JSON.stringify({ items: [], total: 0, page: params.page, limit: params.limit } satisfies SearchResult);
      const result = search(params);
      json = JSON.stringify(result);
      // Only answers with matches are kept: one that matches nothing costs an index probe to recompute, and
      // streams of distinct junk names (which match nothing) would otherwise fill the cache and fragment the
      // heap around it.
      if (result.total > 0) answers.set(rawQuery, json, stringBytes(rawQuery) + stringBytes(json) + ENTRY_OVERHEAD_BYTES);
      return json;
    },
  };
}


/** Each term as a quoted FTS5 string, so no character of user text is FTS syntax. */
export function toFtsPhrases(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}

const FOOD_NUMBER = /^\d{5}$/;
const utf8 = new TextDecoder();

/**
 * Food details. The importer stored each answer zstd-compressed: sent as it is to clients that accept
 * zstd, else decompressed, the most recently asked kept decompressed (bounded by bytes).
 */
export function createFoodDetails(store: CatalogStore) {
  const cache = new LruCache<string, Uint8Array>(DETAIL_CACHE_BYTES);

  const decompressed = (foodNumber: string, packed: Uint8Array): Uint8Array => {
    let json = cache.get(foodNumber);
    if (json === undefined) {
      json = Bun.zstdDecompressSync(packed);
      cache.set(foodNumber, json, json.byteLength + ENTRY_OVERHEAD_BYTES);
    }
    return json;
  };

  return {
    /**
     * A food's detail as stored; with `nutrients`, a copy listing only those numbers (unknown ones are
     * absent) as JSON text. Null for a food that does not exist.
     */
    answer(foodNumber: string, nutrients?: readonly string[]): ZstdJson | string | null {
      if (!FOOD_NUMBER.test(foodNumber)) return null;
      const packed = store.packedDetail(Number(foodNumber));
      if (packed === undefined) return null;
      if (nutrients === undefined) return { zstd: packed, decoded: () => decompressed(foodNumber, packed) };
      const wanted = new Set(nutrients);
      const detail = JSON.parse(utf8.decode(decompressed(foodNumber, packed))) as FoodDetail;
      return JSON.stringify({ ...detail, nutrients: detail.nutrients.filter((n) => wanted.has(n.number)) } satisfies FoodDetail);
    },
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
