/**
 * A request's URL taken apart, and the one rule for what path a route is matched on. Done once per
 * request (request-context.ts `requestUrl` keeps the result with the request): the route table, the
 * dispatcher, CORS and `OPTIONS`, metrics, limits, no-store, the session guard and the access log all read
 * the same parts, so they cannot disagree about which route a request is for.
 */
export interface RequestUrl {
  /** The path as sent, without its query: what the access log shows (never the query, which may hold user text). */
  readonly rawPath: string;
  /** The path routes are matched on: `routePath(rawPath)`. */
  readonly path: string;
  /** The query string without its `?` ("" when there is none). */
  readonly search: string;
}

const SLASH = 47;

/**
 * Path and query of a request URL, with string operations only (no URL object per request). Bun gives an
 * absolute URL built from the Host header, or just the request target (`/v1/meta`) when Host is missing or
 * not a valid host: the path is what follows the authority, never a guess from a fixed offset.
 */
export function parseRequestUrl(url: string): RequestUrl {
  const start = url.charCodeAt(0) === SLASH ? 0 : url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return { rawPath: "/", path: "/", search: "" };
  const query = url.indexOf("?", start);
  const rawPath = query === -1 ? url.slice(start) : url.slice(start, query);
  return { rawPath, path: routePath(rawPath), search: query === -1 ? "" : url.slice(query + 1) };
}

/**
 * The path a route is matched on, for a request's path and a declared template alike: one trailing slash
 * is the same route, as Elysia matches it (it registers `/x/` beside `/x`), and `/` stays `/`. Nothing else
 * is rewritten: a percent-encoded segment names a route only as a parameter's value (`decodeSegment`), as in
 * Elysia, so `/v1/%66oods` is no route and cannot open a fresh limit bucket.
 */
export function routePath(path: string): string {
  return path.length > 1 && path.charCodeAt(path.length - 1) === SLASH ? path.slice(0, -1) : path;
}

/** A parameter segment's value, percent-decoded; not valid percent-encoding is taken literally (it names nothing). */
export function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The request with an absolute URL. Elysia's router reads the path from `request.url` after the scheme and
 * authority, so a bare request target (no usable Host header) is given a placeholder authority first;
 * every other request passes through untouched.
 */
export function withAbsoluteUrl(request: Request): Request {
  return request.url.charCodeAt(0) === SLASH ? new Request(`http://unknown-host${request.url}`, request) : request;
}
