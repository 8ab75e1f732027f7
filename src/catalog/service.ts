import type { Coding } from "../platform/http/accept-encoding";
import { compress, type EncodedAnswer, type PreparedJson, preparedJson } from "../platform/http/content-encoding";
import { etagBase } from "../platform/http/etag";
import { type AmountRequest, parseAmountQuery, scaleDetail } from "./amounts";
import { ENTRY_OVERHEAD_BYTES, LruCache, stringBytes } from "../platform/lru";
import { createFoodOrders } from "./food-orders";
import { KeptForms } from "./kept-forms";
import { matchesAllTerms, rankPositions } from "./ranking";
import { parseSearchQuery, type SearchParams } from "./search-params";
import { type AnswerForm, type CatalogStore, STORED_CODINGS, type StoredDetail } from "./store";
import type { FoodDetail, FoodGroupList, FoodSearchItem, NutrientList, SearchResult } from "./model";

/** The trigram index needs three characters; shorter terms are checked on the candidates it returns. */
const TRIGRAM = 3;
/**
 * Ordered matches kept per request: positions in the food index, 4 bytes each, plus the key. Every cache
 * here is bounded in bytes, keys included, so no stream of distinct queries can grow memory.
 */
const SEARCH_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * Answers are also kept as JSON text by their raw query string (bounded by bytes), with their compressed
 * forms as clients ask for them: a popular page is then answered without parsing, serialising or
 * compressing anything. 8 MB: a 1,000-query mix of name searches (1.3 KB answers) and one of nutrient
 * searches (3.2 KB answers, which list values) both fit, with the forms a browser's requests add (about a
 * fifth of the text each); bench/run's mixes run in a cycle, which an LRU one entry too small misses entirely.
 */
const ANSWER_CACHE_BYTES = 8 * 1024 * 1024;
/**
 * Answers that list nothing (a page past the last, a name that matches nothing) are kept apart, in a cache
 * of their own: a client paging one past the end asks for the same empty page again and again (36 of
 * bench/run's 1,000 nutrient searches are such pages: recomputing them cost the whole mix a measurable share
 * of its throughput, docs/performance.md), but a stream of distinct page numbers or junk names, which could
 * push real answers out of one shared cache, churns only this one. An entry counts ~350 bytes (key, answer,
 * the cache's own overhead): ~700 are kept.
 */
const EMPTY_ANSWER_CACHE_BYTES = 256 * 1024;
/** A kept form's array header and its slot in the answer's record. */
const FORM_OVERHEAD_BYTES = 64;

/**
 * Name search, with nutrient filters and sorts. The catalog never changes while served, so the ordered
 * matches of a request (its terms, group, filters and sort) are computed once and kept in a bounded cache;
 * a page is then a slice.
 */
export function createFoodSearch(store: CatalogStore) {
  const cache = new LruCache<string, Int32Array>(SEARCH_CACHE_BYTES);
  const answers = new LruCache<string, PreparedJson>(ANSWER_CACHE_BYTES);
  const emptyAnswers = new LruCache<string, PreparedJson>(EMPTY_ANSWER_CACHE_BYTES);
  const orders = createFoodOrders(store);
  let units: ReadonlyMap<string, string> | undefined;
  const unitOf = (number: string) => (units ??= new Map(store.nutrients().map((n) => [n.number, n.unit]))).get(number);
  const isNutrient = (number: string) => unitOf(number) !== undefined;

  /**
   * The matches of (terms, group), as positions in the food index (food-orders.ts), in relevance order with
   * terms, else in food-number order. The full-text index gives ids only and the foods are the index's
   * shared objects, so a search makes no row objects.
   */
  function matchesOf(terms: readonly string[], group: string | undefined): Int32Array {
    return cached(JSON.stringify([terms, group ?? null]), () => {
      const { candidates, groups, positionOfId, traits } = orders.foods();
      const inGroup = (position: number) => group === undefined || groups[position] === group;
      if (terms.length === 0) return positionsWhere(candidates.length, inGroup);
      // The index narrows; this check is the definition of a match (every term a substring of the name).
      const matches = (position: number) => inGroup(position) && matchesAllTerms(candidates[position]!.searchName, terms);
      const indexable = terms.filter((term) => [...term].length >= TRIGRAM);
      let found: Int32Array;
      let count = 0;
      if (indexable.length > 0) {
        const ids = store.foodIdsMatching(toFtsPhrases(indexable));
        found = new Int32Array(ids.length);
        for (let i = 0; i < ids.length; i++) {
          const position = positionOfId[ids[i]!] ?? -1;
          if (position >= 0 && matches(position)) found[count++] = position;
        }
      } else {
        found = new Int32Array(candidates.length);
        for (let position = 0; position < candidates.length; position++) if (matches(position)) found[count++] = position;
      }
      return rankPositions(found.subarray(0, count), terms, candidates, traits);
    });
  }

  /** The matches as the request filters and orders them, as positions. */
  function orderedMatches({ terms, group, filters, sort }: SearchParams): Int32Array {
    const inMatchOrder = sort.by === "relevance" || (sort.by === "foodNumber" && !sort.descending && terms.length === 0);
    if (filters.length === 0 && inMatchOrder) return matchesOf(terms, group);
    const byNumber = [...filters].sort((a, b) => (a.number < b.number ? -1 : 1));
    return cached(JSON.stringify([terms, group ?? null, byNumber, sort]), () => {
      const { groups } = orders.foods();
      const foods = groups.length;
      // A position is kept when it is a match and then in every filter's range, one level per filter.
      const { level, order: ordered } = scratch(foods);
      // Without terms the matches are every food of the group: marked from the index, not read again.
      const matches = terms.length > 0 ? matchesOf(terms, group) : undefined;
      if (matches) for (let i = 0; i < matches.length; i++) level[matches[i]!] = 1;
      else for (let position = 0; position < foods; position++) if (group === undefined || groups[position] === group) level[position] = 1;
      filters.forEach(({ number, min, max }, i) => {
        const inRange = orders.nutrient(number)!.between(min, max);
        for (let j = 0; j < inRange.length; j++) if (level[inRange[j]!] === i + 1) level[inRange[j]!] = i + 2;
      });
      const kept = filters.length + 1;
      if (sort.by === "relevance") return matches!.filter((position) => level[position] === kept);
      let count = 0;
      const keep = (position: number) => {
        if (level[position] === kept) ordered[count++] = position;
      };
      const walk = (order: ArrayLike<number>) => {
        for (let i = 0; i < order.length; i++) keep(order[i]!);
      };
      if (sort.by === "foodNumber") {
        if (sort.descending) for (let position = foods - 1; position >= 0; position--) keep(position);
        else for (let position = 0; position < foods; position++) keep(position);
      }
      if (sort.by === "name") walk(orders.byName(sort.descending));
      if (sort.by === "nutrient") {
        const column = orders.nutrient(sort.number)!;
        if (sort.descending) column.forEachDescending(keep);
        else walk(column.ascending);
        // Foods without a value come last, in food-number order, whichever the direction.
        for (let position = 0; position < foods; position++) {
          if (level[position] === kept && Number.isNaN(column.valueAt(position))) ordered[count++] = position;
        }
      }
      return ordered.slice(0, count);
    });
  }

  /**
   * Working space for computing one ordered match list (computed synchronously, one at a time): a level per
   * food and the order being built, reused rather than made and dropped by every search.
   */
  let scratchSpace: { level: Uint8Array; order: Int32Array } | undefined;
  function scratch(foods: number) {
    scratchSpace ??= { level: new Uint8Array(foods), order: new Int32Array(foods) };
    scratchSpace.level.fill(0);
    return scratchSpace;
  }

  /**
   * Ordered matches are kept as typed arrays of positions: one exact allocation each, outside the
   * collector's blocks. Kept as arrays of item references (a 4 MB cache), they were scattered among the
   * garbage of the searches that made them and held a worker's memory far above its live data under a mix
   * of distinct nutrient searches (figures: docs/performance.md).
   */
  function cached(key: string, compute: () => Int32Array): Int32Array {
    let matches = cache.get(key);
    if (!matches) {
      matches = compute();
      if (matches.length > 0) cache.set(key, matches, matches.byteLength + stringBytes(key) + ENTRY_OVERHEAD_BYTES);
    }
    return matches;
  }

  /** A page of items; with a nutrient filter or sort, each names the nutrients of the request with its values. */
  function itemsAt(positions: Int32Array, listed: readonly string[]): FoodSearchItem[] {
    const { items } = orders.foods();
    if (listed.length === 0) return Array.from(positions, (position) => items[position]!);
    const columns = listed.map((number) => ({ number, unit: unitOf(number)!, column: orders.nutrient(number)! }));
    return Array.from(positions, (position) => {
      const { foodNumber, name } = items[position]!;
      return {
        foodNumber,
        name,
        nutrients: columns.map(({ number, unit, column }) => {
          const value = column.valueAt(position);
          return { number, value: Number.isNaN(value) ? null : value, unit };
        }),
      };
    });
  }

  function search(params: SearchParams): SearchResult {
    const { page, limit, listed } = params;
    const matches = orderedMatches(params);
    const offset = (page - 1) * limit;
    const slice = offset < matches.length ? matches.subarray(offset, offset + limit) : new Int32Array(0);
    return { items: itemsAt(slice, listed), total: matches.length, page, limit };
  }

  return {
    /**
     * The answer to a query string (`q=chicken&limit=20`): JSON text, or kept with its compressed forms
     * (made on first demand) when cached. Throws the 400 of a bad parameter.
     */
    answerForQuery(rawQuery: string): PreparedJson | string {
      const cached = answers.get(rawQuery) ?? emptyAnswers.get(rawQuery);
      if (cached !== undefined) return cached;
      const params = parseSearchQuery(rawQuery, isNutrient);
      // Junk that cannot match touches no cache: it would only push real answers out.
      if (params.matchesNothing) return JSON.stringify({ items: [], total: 0, page: params.page, limit: params.limit } satisfies SearchResult);
      const result = search(params);
      const json = JSON.stringify(result);
      const prepared = preparedJson(json, etagBase(json));
      const weight = textBytes(rawQuery) + prepared.bytes.byteLength + ENTRY_OVERHEAD_BYTES;
      if (result.items.length === 0) {
        emptyAnswers.set(rawQuery, prepared, weight);
        return prepared;
      }
      answers.set(rawQuery, prepared, weight);
      // The compressed forms count when they are made: a cache of answers that only ever go as identity is
      // not sized for forms it never holds.
      prepared.onFormKept = (bytes) => answers.grow(rawQuery, bytes + FORM_OVERHEAD_BYTES);
      return prepared;
    },
  };
}

/**
 * What a string takes in memory: JavaScriptCore keeps a string whose characters are all Latin-1 (every
 * search answer and query string, in practice) at one byte per character, others at two.
 */
const textBytes = (text: string): number => (/[^\u0000-\u00ff]/.test(text) ? 2 : 1) * text.length;

/** The positions 0 … count − 1 for which `keep` holds, in order. */
function positionsWhere(count: number, keep: (position: number) => boolean): Int32Array {
  const positions: number[] = [];
  for (let position = 0; position < count; position++) if (keep(position)) positions.push(position);
  return Int32Array.from(positions);
}

/** Each term as a quoted FTS5 string, so no character of user text is FTS syntax. */
function toFtsPhrases(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}

/** Food numbers are five digits: every id is below this. */
const FOOD_ID_LIMIT = 100_000;

const foodIdLookups = new WeakMap<CatalogStore, (foodNumber: string) => number | null>();

/**
 * A food number's id (NDB_No as an integer), or null for anything that is not a food of the catalog. The
 * catalog's ids (8,789 numbers) are read on first use and kept, once per store whoever asks (the details,
 * the labels), so that a food that does not exist is known before any of its rows is read.
 */
export function foodIdLookup(store: CatalogStore): (foodNumber: string) => number | null {
  let lookup = foodIdLookups.get(store);
  if (lookup === undefined) {
    // One byte per possible id, set for the catalog's: it runs on every detail and label request, where a
    // regular expression, a Number() and a Set cost several times as much.
    let known: Uint8Array | undefined;
    lookup = (foodNumber) => {
      if (foodNumber.length !== 5) return null;
      let id = 0;
      for (let i = 0; i < 5; i++) {
        const digit = foodNumber.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) return null;
        id = id * 10 + digit;
      }
      if (known === undefined) {
        known = new Uint8Array(FOOD_ID_LIMIT);
        for (const foodId of store.foodIds()) known[foodId] = 1;
      }
      return known[id] === 1 ? id : null;
    };
    foodIdLookups.set(store, lookup);
  }
  return lookup;
}
const utf8 = new TextDecoder();
const utf8Bytes = new TextEncoder();

/** What a detail request may ask beyond the food: a selection of nutrients, an amount other than 100 g. */
export interface DetailView {
  nutrients?: readonly string[];
  amount?: AmountRequest;
}

/**
 * The codings a plain detail is offered in, in the server's order among equal weights: the stored ones
 * first, so that br goes only to a client that prefers it or accepts nothing else, and a browser or a
 * gzip client never makes a br form be made.
 */
const DETAIL_CODINGS = [...STORED_CODINGS, "br"] as const satisfies readonly Coding[];

/**
 * Food details. Every food's answer is ready in the catalog's answers file, as JSON and in each stored
 * coding (answer-file.ts): a detail in those is sent as the file's bytes, nothing decompressed or encoded
 * for the request (the coded forms a view of the mapping every worker shares, the JSON read into a buffer the
 * worker reuses: design §18). A client that wants br gets a form
 * made from the JSON on the first such request for the food, and kept (kept-forms.ts): made once per food
 * per worker (~0.4 ms), never evicted (at most the catalog's br forms, ~18 MB), so never made again. Stored
 * in the answers file instead, they would add ~20 MB to the binary for the few clients that take br alone
 * (design §9; figures in docs/performance.md). A view (selected nutrients, scaled amounts) is made from
 * the JSON for its request.
 */
export function createFoodDetails(store: CatalogStore) {
  const idOf = foodIdLookup(store);
  let decimals: ReadonlyMap<string, number> | undefined;
  const decimalsOf = () => (decimals ??= new Map(store.nutrients().map((n) => [n.number, n.decimals])));
  const brForms = new KeptForms();

  const stored = (id: number, form: AnswerForm): StoredDetail => {
    const answer = store.storedDetail(id, form);
    if (answer === undefined) throw new Error(`food ${id} has no stored detail`);
    return answer;
  };
  // Without a tag the food has no stored detail, which `stored` refuses.
  const storedTag = (id: number): string => store.storedEtag(id) ?? stored(id, "identity").etag;

  /**
   * A food's stored answer: each form as stored, br as made once. Opening it gives the tag alone: a 304 sends
   * no body, and a kept br form needs no JSON, so the answer's bytes are read only when a body is sent.
   */
  const storedAnswer = (id: number): EncodedAnswer => ({
    offered: DETAIL_CODINGS,
    open(coding) {
      if (coding !== "identity" && coding !== "br") {
        // A view of the mapping: nothing read, so made at once with its tag.
        const answer = stored(id, coding);
        return { etag: answer.etag, body: () => answer.body };
      }
      const etag = storedTag(id);
      if (coding === "identity") return { etag, body: () => stored(id, coding).body };
      return { etag, body: () => brForms.get(id) ?? brForms.keep(id, compress(stored(id, "identity").body, "br", "kept")) };
    },
  });

  const isPlain = (view: DetailView) => view.nutrients === undefined && view.amount === undefined;

  /** With `view`, a copy listing only the nutrients asked for (unknown numbers are absent), scaled to the amount asked for. */
  const viewJson = (id: number, view: DetailView): string => {
    let detail = JSON.parse(utf8.decode(stored(id, "identity").body)) as FoodDetail;
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

    /** The same as JSON bytes (a batch lookup joins several), the caller's until its next call: a plain detail's are read into a buffer the store reuses. */
    jsonBytes(foodNumber: string, view: DetailView = {}): Uint8Array | null {
      const id = idOf(foodNumber);
      if (id === null) return null;
      return isPlain(view) ? stored(id, "identity").body : utf8Bytes.encode(viewJson(id, view));
    },
  };
}

/** A detail's query string: `nutrients`, `grams`, `portion` (a repeated parameter counts once, first value). */
export function parseDetailQuery(search: string): DetailView {
  const query = new URLSearchParams(search);
  return { nutrients: parseNutrientFilter(query.get("nutrients") ?? undefined), amount: parseAmountQuery(query) };
}

/** `?nutrients=203,204`: numbers separated by commas; blanks dropped. */
function parseNutrientFilter(raw: string | undefined): string[] | undefined {
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
