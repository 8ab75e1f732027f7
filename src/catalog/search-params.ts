import { apiError } from "../http/error-catalog";
import { foldForSearch } from "./fold";
import type { SearchQuery } from "./model";

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 90;
export const QUERY_MAX_CHARS = 200;

/** The search request after validation and clamping: what the envelope reports back. */
export interface SearchParams {
  /** Folded, non-empty terms; empty when there is no name filter. */
  readonly terms: readonly string[];
  readonly group: string | undefined;
  readonly page: number;
  readonly limit: number;
  /**
   * A value that no food can match (a `group` that is not 4 digits, a term with a control character, which
   * no name contains): answered as an empty page without querying or caching anything.
   */
  readonly matchesNothing: boolean;
}

const GROUP_CODE = /^\d{4}$/;
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * Out-of-range page and limit are clamped, never an error; a value that is not an integer is a 400.
 * Empty parameters (`q=`, `page=`) count as absent.
 */
export function parseSearchParams(query: SearchQuery): SearchParams {
  const q = (query.q ?? "").trim();
  if ([...q].length > QUERY_MAX_CHARS) throw apiError("VALIDATION_ERROR", "q", `must be at most ${QUERY_MAX_CHARS} characters`);
  const terms = q.split(/\s+/).map(foldForSearch).filter(Boolean);
  const group = query.group || undefined;
  return {
    terms,
    group,
    matchesNothing: (group !== undefined && !GROUP_CODE.test(group)) || terms.some((term) => CONTROL_CHARACTER.test(term)),
    page: clampedInteger("page", query.page, { fallback: 1, min: 1, max: Number.MAX_SAFE_INTEGER }),
    limit: clampedInteger("limit", query.limit, { fallback: PAGE_SIZE_DEFAULT, min: 1, max: PAGE_SIZE_MAX }),
  };
}

/** The same from a raw query string (`q=chicken&limit=20`); a repeated parameter counts once, first value. */
export function parseSearchQuery(search: string): SearchParams {
  const query = new URLSearchParams(search);
  return parseSearchParams({
    q: query.get("q") ?? undefined,
    group: query.get("group") ?? undefined,
    page: query.get("page") ?? undefined,
    limit: query.get("limit") ?? undefined,
  });
}

function clampedInteger(name: string, raw: string | undefined, range: { fallback: number; min: number; max: number }): number {
  if (raw === undefined || raw === "") return range.fallback;
  if (!/^[+-]?\d+$/.test(raw)) throw apiError("VALIDATION_ERROR", name, "must be an integer");
  // BigInt so that 10^20 clamps instead of turning into a float.
  const value = BigInt(raw);
  if (value < BigInt(range.min)) return range.min;
  if (value > BigInt(range.max)) return range.max;
  return Number(value);
}
