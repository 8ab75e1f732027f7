import type { ErrorMapper } from "./error-mapping";
import { declaresTooLargeBody } from "./body";
import { errorDescription } from "./error-catalog";
import { errorResponse } from "./errors";

/**
 * The data routes, answered before Elysia. Elysia's generic request pipeline (context, hooks, header
 * merging) cost more than a cached answer itself, so `GET`s and `HEAD`s of the read routes listed here go
 * straight to a plain `(request, target) => Response` handler. A data route with a body (a `POST`) is
 * answered here too, because its body must not be read before its credential is counted (Elysia parses a
 * body before any handler runs). Every other request, and these paths with any other method, falls through
 * to the Elysia app, where the same routes are also mounted with their schemas (for the OpenAPI document),
 * calling the same handlers. Both are made from one declaration, a `DirectRouteSpec` (route-table.ts).
 */
/** What a handler needs of the URL once the route is matched. */
export interface RequestTarget {
  /** The query string without its `?` ("" when there is none). */
  readonly search: string;
  /** The last path segment, percent-decoded, for a route declared with `param`. */
  readonly param?: string;
  /**
   * A POST's body as Elysia parsed it, when the route's Elysia copy answers; absent when the dispatcher
   * answers, and the handler reads the body itself.
   */
  readonly body?: unknown;
}

/** A promise only where a store answers over the network: the embedded one answers in the same turn. */
export type DirectHandler = (request: Request, target: RequestTarget) => Response | Promise<Response>;

export interface DirectRoute {
  /** GET (and HEAD) unless said. */
  readonly method?: "POST";
  /** `/v1/foods`; with `param`, the prefix of `/v1/foods/{param}`. */
  readonly path: string;
  /** The name of the last path segment's parameter (`foodNumber`), for the document and its check. */
  readonly param?: string;
  readonly handle: DirectHandler;
}

export type Handle = (request: Request) => Response | Promise<Response>;

/** `routes`: what `handle` answers itself, so that a check can hold them to the document. */
export interface Dispatcher {
  readonly handle: Handle;
  readonly routes: readonly DirectRoute[];
}

/** `undocumented`: routes answered here too but absent from the API's document (`/metrics`, for the operator's scraper). */
export function createDispatcher(routes: readonly DirectRoute[], fallback: Handle, toApiError: ErrorMapper, undocumented: readonly DirectRoute[] = []): Dispatcher {
  const exact = new Map<string, DirectHandler>();
  const withParam = new Map<string, DirectHandler>();
  const posts = new Map<string, DirectHandler>();
  for (const route of [...routes, ...undocumented]) {
    if (route.method === "POST") {
      if (route.param) throw new Error(`direct route POST ${route.path}: a POST takes no path parameter`);
      posts.set(route.path, route.handle);
    } else (route.param ? withParam : exact).set(route.path, route.handle);
  }
  const failed = (error: unknown) => errorResponse(toApiError(error));

  const handle: Handle = (request) => {
    const head = request.method === "HEAD";
    if (request.method === "POST") return post(request);
    if (request.method !== "GET" && !head) return fallback(request);
    const { path: rawPath, search } = splitUrl(request.url);
    const path = withoutTrailingSlash(rawPath);
    let handler = exact.get(path);
    let param: string | undefined;
    if (!handler) {
      const slash = path.lastIndexOf("/");
      handler = slash > 0 && slash < path.length - 1 ? withParam.get(path.slice(0, slash)) : undefined;
      if (!handler) return fallback(request);
      param = decodeSegment(path.slice(slash + 1));
    }
    if (declaresTooLargeBody(request)) return errorResponse(errorDescription("PAYLOAD_TOO_LARGE", []));
    let response: Response | Promise<Response>;
    try {
      response = handler(request, { search, param });
    } catch (error) {
      response = failed(error);
    }
    if (response instanceof Promise) return response.catch(failed).then((settled) => (head ? headersOnly(settled) : settled));
    return head ? headersOnly(response) : response;
  };
  /** A POST route reads (and size-checks) its own body, after its credential: no check here comes first. */
  const post: Handle = (request) => {
    const { path, search } = splitUrl(request.url);
    const handler = posts.get(withoutTrailingSlash(path));
    if (!handler) return fallback(request);
    try {
      const response = handler(request, { search });
      return response instanceof Promise ? response.catch(failed) : response;
    } catch (error) {
      return failed(error);
    }
  };
  return { handle, routes };
}

/** A trailing slash is the same route, as Elysia matches it. */
const withoutTrailingSlash = (path: string) => (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path);

/** HEAD is answered here too, as GET without the body: the same guard, quota and status. */
const headersOnly = (response: Response) => new Response(null, { status: response.status, headers: response.headers });

const SLASH = 47;

/**
 * Path and query of a request URL, with string operations only (no URL object per request). The one place
 * a request URL is taken apart: the router, the limiter's buckets and the access log all use it, so they
 * agree on the path. Bun gives an absolute URL built from the Host header, or just the request target
 * (`/v1/meta`) when Host is missing or not a valid host: the path is what follows the authority, never a
 * guess from a fixed offset.
 */
export function splitUrl(url: string): { path: string; search: string } {
  const start = url.charCodeAt(0) === SLASH ? 0 : url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return { path: "/", search: "" };
  const query = url.indexOf("?", start);
  return query === -1 ? { path: url.slice(start), search: "" } : { path: url.slice(start, query), search: url.slice(query + 1) };
}


/**
 * The request with an absolute URL. Elysia's router reads the path from `request.url` after the scheme and
 * authority, so a bare request target (no usable Host header) is given a placeholder authority first;
 * every other request passes through untouched.
 */
export function withAbsoluteUrl(request: Request): Request {
  return request.url.charCodeAt(0) === SLASH ? new Request(`http://unknown-host${request.url}`, request) : request;
}

function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: taken literally, so it simply matches nothing.
    return segment;
  }
}
