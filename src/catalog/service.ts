import { STORED_CODINGS } from "./import/sqlite-details";
import { type EncodedAnswer, type PreparedJson, preparedJson } from "../http/content-encoding";
import { etagBase } from "../http/etag";
import { type AmountRequest, parseAmountQuery, scaleDetail } from "./amounts";
import { ENTRY_OVERHEAD_BYTES, LruCache, stringBytes } from "../lru";
import { matchesAllTerms, rankCandidates } from "./ranking";
import { parseSearchQuery, type SearchParams } from "./search-params";
import type { CatalogStore, StoredCoding, StoredDetail } from "./store";
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
 * Answers are also kept as JSON text by their raw query string (bounded by bytes), with their compressed
 * forms as clients ask for them: a popular page is then answered without parsing, serialising or
 * compressing anything. 8 MB: a 1.2 KB page with its three forms weighs up to 4.5 KB.
 */
const ANSWER_CACHE_BYTES = 8 * 1024 * 1024;

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
  const answers = new LruCache<string, PreparedJson>(ANSWER_CACHE_BYTES);

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
    /**
     * The answer to a query string (`q=chicken&limit=20`): JSON text, or kept with its compressed forms
     * (made on first demand) when cached. Throws the 400 of a bad parameter.
     */
    answerForQuery(rawQuery: string): PreparedJson | string {
      const cached = answers.get(rawQuery);
      if (cached !== undefined) return cached;
      const params = parseSearchQuery(rawQuery);
      // Junk that cannot match touches no cache: it would only push real answers out.
      if (params.matchesNothing) return JSON.stringify({ items: [], total: 0, page: params.page, limit: params.limit } satisfies SearchResult);
      const result = search(params);
      const json = JSON.stringify(result);
      // Only answers with matches are kept: one that matches nothing costs an index probe to recompute, and
      // streams of distinct junk names (which match nothing) would otherwise fill the cache and fragment the
      // heap around it.
      if (result.total === 0) return json;
      const prepared = preparedJson(json, etagBase(json));
      answers.set(rawQuery, prepared, stringBytes(rawQuery) + prepared.maxBytes + ENTRY_OVERHEAD_BYTES);
      return prepared;
    },
  };
}


/** Each term as a quoted FTS5 string, so no character of user text is FTS syntax. */
export function toFtsPhrases(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}

const FOOD_NUMBER = /^\d{5}$/;
const utf8 = new TextDecoder();

/** What a detail request may ask beyond the food: a selection of nutrients, an amount other than 100 g. */
export interface DetailView {
  nutrients?: readonly string[];
  amount?: AmountRequest;
}

/**
 * Food details. The importer stored each answer compressed as zstd and as gzip: a client that accepts
 * one gets those bytes as they are; any other gets the gzip form decompressed, the
 * most recently asked kept decompressed (bounded by bytes). A view (selected nutrients, scaled amounts) is
 * made from the decompressed JSON for its request.
 */
export function createFoodDetails(store: CatalogStore) {
  const cache = new LruCache<number, Uint8Array>(DETAIL_CACHE_BYTES);
  // The catalog's food ids (8,789 numbers), so that a food that does not exist is known before any row is read.
  let foodIds: ReadonlySet<number> | undefined;
  const exists = (id: number) => (foodIds ??= new Set(store.allCandidates(undefined).map((c) => Number(c.foodNumber)))).has(id);
  let decimals: ReadonlyMap<string, number> | undefined;
  const decimalsOf = () => (decimals ??= new Map(store.nutrients().map((n) => [n.number, n.decimals])));

  /**
   * The JSON bytes of a food's detail; `stored`: its gzip row when already read. From the gzip form, with
   * libdeflate: it decodes these answers a fifth faster than zstd does.
   */
  const identity = (id: number, stored?: StoredDetail): Uint8Array => {
    let json = cache.get(id);
    if (json === undefined) {
      json = Bun.gunzipSync((stored ?? read(id, "gzip")).body, { library: "libdeflate" });
      cache.set(id, json, json.byteLength + ENTRY_OVERHEAD_BYTES);
    }
    return json;
  };
  const read = (id: number, coding: StoredCoding): StoredDetail => {
    const stored = store.storedDetail(id, coding);
    if (stored === undefined) throw new Error(`food ${id} has no stored detail`);
    return stored;
  };

  /** A food's stored answer: each coding read as stored, identity decompressed from gzip. */
  const storedAnswer = (id: number): EncodedAnswer => ({
    offered: STORED_CODINGS,
    open(coding) {
      // Only the stored codings are ever negotiated (`offered`).
      const stored = read(id, coding === "identity" ? "gzip" : (coding as StoredCoding));
      return { etag: stored.etag, body: () => (coding === "identity" ? identity(id, stored) : stored.body) };
    },
  });

  const idOf = (foodNumber: string): number | null => {
    if (!FOOD_NUMBER.test(foodNumber)) return null;
    const id = Number(foodNumber);
    return exists(id) ? id : null;
  };
  const isPlain = (view: DetailView) => view.nutrients === undefined && view.amount === undefined;

  /** With `view`, a copy listing only the nutrients asked for (unknown numbers are absent), scaled to the amount asked for. */
  const viewJson = (id: number, view: DetailView): string => {
    let detail = JSON.parse(utf8.decode(identity(id))) as FoodDetail;
    if (view.nutrients !== undefined) {
      const wanted = new Set(view.nutrients);
      detail = { ...detail, nutrients: detail.nutrients.filter((n) => wanted.has(n.number)) };
    }
    if (view.amount !== undefined) detail = scaleDetail(detail, view.amount, decimalsOf());
    return JSON.stringify(detail satisfies FoodDetail);
  };

  return {
    /**
     * A food's detail: as stored (every coding ready), or as JSON text made for `view`. Null for a food
     * that does not exist. Throws the 400 of a portion the food does not have.
     */
    answer(foodNumber: string, view: DetailView = {}): EncodedAnswer | string | null {
      const id = idOf(foodNumber);
      if (id === null) return null;
      return isPlain(view) ? storedAnswer(id) : viewJson(id, view);
    },

    /** The same as JSON text (a batch lookup joins several). */
    json(foodNumber: string, view: DetailView = {}): string | null {
      const id = idOf(foodNumber);
      if (id === null) return null;
      return isPlain(view) ? utf8.decode(identity(id)) : viewJson(id, view);
    },
  };
}

/** A detail's query string: `nutrients`, `grams`, `portion` (a repeated parameter counts once, first value). */
export function parseDetailQuery(search: string): DetailView {
  const query = new URLSearchParams(search);
  return { nutrients: parseNutrientFilter(query.get("nutrients") ?? undefined), amount: parseAmountQuery(query) };
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
