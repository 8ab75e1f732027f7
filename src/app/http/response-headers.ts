import type { Handle } from "../../platform/http/direct-routes";
import { SECURITY_HEADERS } from "../../platform/http/errors";
import type { RouteTable } from "../../platform/http/route-table";

/**
 * The headers added to answers after the routes have made them, in one place: CORS for the data API,
 * `Strict-Transport-Security` behind an https base URL, and `OPTIONS` (design §10). Each route sets
 * only its own headers (content type, RateLimit, ETag, a page's CSP); `nosniff` is set where every
 * answer is built (errors.ts `errorResponse`, the direct routes, the shell), and `X-Request-Id` by the
 * server with the access log (server.ts), since the id belongs to the log line.
 */

/** What a browser script may send to the data API, and read back. */
const CORS_ALLOW_HEADERS = "X-API-Key, Authorization, Content-Type";
const CORS_EXPOSE_HEADERS = "RateLimit, RateLimit-Policy, Retry-After, ETag, X-Request-Id";
/** Preflights are cached by browsers this long (Chromium caps it at 2 hours). */
const CORS_MAX_AGE_SECONDS = "7200";
/** One year, as the HSTS preload list asks; subdomains are the operator's to decide, so not included. */
const HSTS = "max-age=31536000";

/**
 * CORS applies to the data routes, `/v1/meta` and the trial routes: every `/v1` route but the key routes,
 * whose session cookie must stay same-origin (so must `/api/auth/*`). Never credentials: the data API
 * takes its key or token in a header, and a cookie must never ride along.
 */
function corsApplies(template: string): boolean {
  return template.startsWith("/v1/") && template !== "/v1/keys" && !template.startsWith("/v1/keys/");
}

export interface ResponseHeaderOptions {
  baseUrl: URL;
  /** Allowed origins, or "*"; empty: no CORS headers at all. */
  corsOrigins: readonly string[] | "*";
  /** Which route a request is for: CORS and `OPTIONS` are decided by its template. */
  routes: Pick<RouteTable, "matchOf">;
}

/** `handle` with the headers above added to its answers, and `OPTIONS` answered for every known route. */
export function withResponseHeaders(handle: Handle, options: ResponseHeaderOptions): Handle {
  const anyOrigin = options.corsOrigins === "*";
  const origins = new Set(anyOrigin ? [] : options.corsOrigins);
  const cors = anyOrigin || origins.size > 0;
  const hsts = options.baseUrl.protocol === "https:";
  const { routes } = options;

  /** The Access-Control-Allow-Origin value for this request's Origin, or null when it gets none. */
  const allowOrigin = (origin: string | null): string | null => {
    if (origin === null) return null;
    if (anyOrigin) return "*";
    return origins.has(origin) ? origin : null;
  };

  const decorate = (request: Request, response: Response): Response => {
    if (hsts) response.headers.set("strict-transport-security", HSTS);
    if (!cors) return response;
    const { template } = routes.matchOf(request);
    if (template === undefined || !corsApplies(template)) return response;
    // With a list, the answer depends on the Origin: a shared cache must keep one copy per origin.
    if (!anyOrigin) response.headers.append("vary", "Origin");
    const allowed = allowOrigin(request.headers.get("origin"));
    if (allowed !== null) {
      response.headers.set("access-control-allow-origin", allowed);
      response.headers.set("access-control-expose-headers", CORS_EXPOSE_HEADERS);
    }
    return response;
  };

  const options204 = (request: Request, template: string, allow: readonly string[]): Response => {
    const methods = allow.join(", ");
    const headers = new Headers({ allow: methods, ...SECURITY_HEADERS });
    if (hsts) headers.set("strict-transport-security", HSTS);
    if (cors && corsApplies(template)) {
      if (!anyOrigin) headers.set("vary", "Origin");
      const allowed = allowOrigin(request.headers.get("origin"));
      if (allowed !== null && request.headers.has("access-control-request-method")) {
        headers.set("access-control-allow-origin", allowed);
        headers.set("access-control-allow-methods", methods);
        headers.set("access-control-allow-headers", CORS_ALLOW_HEADERS);
        headers.set("access-control-max-age", CORS_MAX_AGE_SECONDS);
      }
    }
    return new Response(null, { status: 204, headers });
  };

  if (!cors && !hsts) {
    // Nothing to add to answers: only OPTIONS is this layer's, and the hot path pays one comparison.
    return (request) => {
      if (request.method === "OPTIONS") {
        const match = routes.matchOf(request);
        if (match.template !== undefined) return options204(request, match.template, match.allow);
      }
      return handle(request);
    };
  }
  return (request) => {
    if (request.method === "OPTIONS") {
      const match = routes.matchOf(request);
      if (match.template !== undefined) return options204(request, match.template, match.allow);
    }
    const response = handle(request);
    return response instanceof Promise ? response.then((settled) => decorate(request, settled)) : decorate(request, response);
  };
}

const REQUEST_ID = /^[A-Za-z0-9._:@+=-]{1,128}$/;

/** A random per-process prefix and a counter: unique across workers and restarts, and cheaper than a random id per request. */
let processPrefix: string | undefined;
let requestCounter = 0;

/**
 * The request id for the log line and the `X-Request-Id` header: the one a proxy in front set
 * (`incoming`), when it is well formed (1-128 characters of letters, digits and `._:@+=-`, as UUIDs and
 * the usual proxy ids are), else a new one. A malformed id is replaced, never echoed: it could carry anything into the log.
 */
export function requestIdFor(incoming: string | null): string {
  if (incoming !== null && REQUEST_ID.test(incoming)) return incoming;
  processPrefix ??= Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex");
  return `${processPrefix}-${(++requestCounter).toString(36)}`;
}
