import type { ZstdJson } from "../http/content-encoding";
import { LruCache } from "./lru";
import { matchesAllTerms, rankCandidates } from "./ranking";
import { parseSearchQuery, type SearchParams } from "./search-params";
import type { CatalogStore } from "./store";
import type { FoodDetail, FoodGroupList, FoodSearchItem, NutrientList, SearchResult } from "./model";

/** The trigram index needs three characters; shorter terms are checked on the candidates it returns. */
const TRIGRAM = 3;
/** Cached search answers hold at most this many items in all (references to shared item objects: ~2 MB). */
const SEARCH_CACHE_ITEMS = 250_000;
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
  const cache = new LruCache<string, readonly FoodSearchItem[]>(SEARCH_CACHE_ITEMS);
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
      cache.set(key, matches, matches.length + 1);
    }
    const offset = (page - 1) * limit;
    return { items: offset < matches.length ? matches.slice(offset, offset + limit) : [], total: matches.length, page, limit };
  }

  return {
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
      cache.set(foodNumber, json, json.byteLength);
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
