import { apiError } from "./errors";
import { foldForSearch } from "./fold";
import { NUTRIENT_FILTERS_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, QUERY_MAX_CHARS, type SearchQuery } from "./model";

/** The query parameters' prefix of a nutrient filter (`nutrient.203=20..`) and of a nutrient sort. */
const NUTRIENT_PREFIX = "nutrient.";
const SORT_ORDERS = ["asc", "desc"] as const;

/** `nutrient.<number>=<min>..<max>`: inclusive bounds per 100 g, either one absent. */
interface NutrientRange {
  readonly number: string;
  readonly min: number | undefined;
  readonly max: number | undefined;
}

/** How the matches are ordered. `relevance` has no direction; every order ends with food number ascending. */
type SearchSort =
  | { readonly by: "relevance" }
  | { readonly by: "foodNumber" | "name"; readonly descending: boolean }
  | { readonly by: "nutrient"; readonly number: string; readonly descending: boolean };

/** The search request after validation and clamping: what the envelope reports back. */
export interface SearchParams {
  /** Folded, non-empty terms; empty when there is no name filter. */
  readonly terms: readonly string[];
  readonly group: string | undefined;
  readonly page: number;
  readonly limit: number;
  /** Nutrient filters in the order the query gave them. */
  readonly filters: readonly NutrientRange[];
  readonly sort: SearchSort;
  /**
   * The nutrients each item lists (`nutrients` of an item): the sort's, then the filters', each once. Empty
   * when the request names none, and items are then exactly `foodNumber` and `name`.
   */
  readonly listed: readonly string[];
  /**
   * A value that no food can match (a `group` that is not 4 digits, a term with a control character, which
   * no name contains): answered as an empty page without querying or caching anything.
   */
  readonly matchesNothing: boolean;
}

/** Whether a nutrient number exists (the numbers of /v1/nutrients). */
export type KnownNutrient = (number: string) => boolean;

const GROUP_CODE = /^\d{4}$/;
const CONTROL_CHARACTER = /\p{Cc}/u;
/** A bound: a plain decimal number (`20`, `0.5`, `.5`, `-1`); no exponent, no `Infinity`. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;

/**
 * Out-of-range page and limit are clamped, never an error; a value that is not an integer is a 400.
 * Empty parameters (`q=`, `page=`, `sort=`, `nutrient.203=`) count as absent.
 */
function parseSearchParams(query: SearchQuery, nutrientFilters: readonly (readonly [string, string])[], isNutrient: KnownNutrient): SearchParams {
  const q = (query.q ?? "").trim();
  if ([...q].length > QUERY_MAX_CHARS) throw apiError("VALIDATION_ERROR", "q", `must be at most ${QUERY_MAX_CHARS} characters`);
  const terms = q.split(/\s+/).map(foldForSearch).filter(Boolean);
  const group = query.group || undefined;
  const filters = parseNutrientFilters(nutrientFilters, isNutrient);
  const sort = parseSort(query.sort || undefined, query.order || undefined, terms.length > 0, isNutrient);
  const listed = [...new Set([...(sort.by === "nutrient" ? [sort.number] : []), ...filters.map((f) => f.number)])];
  return {
    terms,
    group,
    filters,
    sort,
    listed,
    matchesNothing: (group !== undefined && !GROUP_CODE.test(group)) || terms.some((term) => CONTROL_CHARACTER.test(term)),
    page: clampedInteger("page", query.page, { fallback: 1, min: 1, max: Number.MAX_SAFE_INTEGER }),
    limit: clampedInteger("limit", query.limit, { fallback: PAGE_SIZE_DEFAULT, min: 1, max: PAGE_SIZE_MAX }),
  };
}

/**
 * The same from a raw query string (`q=chicken&limit=20`). A repeated parameter counts once, with its first
 * value, except a nutrient filter: naming one nutrient twice is a 400, as the two ranges would contradict.
 */
export function parseSearchQuery(search: string, isNutrient: KnownNutrient): SearchParams {
  const query = new URLSearchParams(search);
  const nutrientFilters: [string, string][] = [];
  for (const [name, value] of query) if (name.startsWith(NUTRIENT_PREFIX) && value !== "") nutrientFilters.push([name, value]);
  return parseSearchParams(
    {
      q: query.get("q") ?? undefined,
      group: query.get("group") ?? undefined,
      page: query.get("page") ?? undefined,
      limit: query.get("limit") ?? undefined,
      sort: query.get("sort") ?? undefined,
      order: query.get("order") ?? undefined,
    },
    nutrientFilters,
    isNutrient,
  );
}

/** `nutrient.<number>` (a parameter name, or a sort) to its number; anything after the prefix that is not a known number is UNKNOWN_NUTRIENT. */
function nutrientNumber(name: string, isNutrient: KnownNutrient): string {
  const number = name.slice(NUTRIENT_PREFIX.length);
  if (!isNutrient(number)) throw apiError("UNKNOWN_NUTRIENT", number);
  return number;
}

function parseNutrientFilters(raw: readonly (readonly [string, string])[], isNutrient: KnownNutrient): NutrientRange[] {
  const filters: NutrientRange[] = [];
  for (const [name, value] of raw) {
    const number = nutrientNumber(name, isNutrient);
    if (filters.some((f) => f.number === number)) throw apiError("VALIDATION_ERROR", name, "may be given once");
    if (filters.length === NUTRIENT_FILTERS_MAX) {
      throw apiError("VALIDATION_ERROR", name, `at most ${NUTRIENT_FILTERS_MAX} nutrient filters may be given`);
    }
    filters.push({ number, ...parseRange(name, value) });
  }
  return filters;
}

/** `min..max`, `min..` or `..max`: inclusive, min not above max. */
function parseRange(name: string, value: string): { min: number | undefined; max: number | undefined } {
  const malformed = () => apiError("VALIDATION_ERROR", name, "must be a range min..max with either bound optional, e.g. 20.. or 100..250");
  const parts = value.split("..");
  if (parts.length !== 2) throw malformed();
  const [min, max] = parts.map((part) => {
    if (part === "") return undefined;
    if (!DECIMAL.test(part)) throw malformed();
    const bound = Number(part);
    if (!Number.isFinite(bound)) throw malformed();
    return bound;
  });
  if (min === undefined && max === undefined) throw malformed();
  if (min !== undefined && max !== undefined && min > max) throw apiError("VALIDATION_ERROR", name, "the lower bound is above the upper one");
  return { min, max };
}

function parseSort(sort: string | undefined, order: string | undefined, hasTerms: boolean, isNutrient: KnownNutrient): SearchSort {
  if (order !== undefined && !(SORT_ORDERS as readonly string[]).includes(order)) throw apiError("VALIDATION_ERROR", "order", "must be asc or desc");
  const by = sort ?? (hasTerms ? "relevance" : "foodNumber");
  // Relevance without terms has nothing to rank by: the order without q, food number.
  if (by === "relevance") return hasTerms ? { by } : { by: "foodNumber", descending: false };
  if (by === "foodNumber" || by === "name") return { by, descending: order === "desc" };
  if (by.startsWith(NUTRIENT_PREFIX)) return { by: "nutrient", number: nutrientNumber(by, isNutrient), descending: order !== "asc" };
  throw apiError("VALIDATION_ERROR", "sort", "must be relevance, foodNumber, name or nutrient.<number>");
}

/** A query parameter that must be an integer, clamped into its range (absent or empty: the fallback). */
export function clampedInteger(name: string, raw: string | undefined, range: { fallback: number; min: number; max: number }): number {
  if (raw === undefined || raw === "") return range.fallback;
  if (!/^[+-]?\d+$/.test(raw)) throw apiError("VALIDATION_ERROR", name, "must be an integer");
  // BigInt so that 10^20 clamps instead of turning into a float.
  const value = BigInt(raw);
  if (value < BigInt(range.min)) return range.min;
  if (value > BigInt(range.max)) return range.max;
  return Number(value);
}
