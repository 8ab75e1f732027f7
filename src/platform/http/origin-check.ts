import { Elysia } from "elysia";
import { apiError } from "./error-catalog";
import { requestFacts } from "./request-context";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for cookie-authenticated state changes: a request whose Origin (or, without one, Referer)
 * names another site is refused. Requests with neither header (curl, scripts, server-side clients) pass:
 * browsers always send Origin on cross-site POST and DELETE.
 */
function isAllowedOrigin(headers: Headers, allowed: ReadonlySet<string>): boolean {
  const origin = headers.get("origin") ?? refererOrigin(headers.get("referer"));
  if (origin === null) return true;
  return allowed.has(origin);
}

function refererOrigin(referer: string | null): string | null {
  if (referer === null) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return "invalid";
  }
}

export function originCheck(allowed: ReadonlySet<string>) {
  return new Elysia().onBeforeHandle({ as: "scoped" }, ({ request }) => {
    if (!SAFE_METHODS.has(request.method) && !isAllowedOrigin(request.headers, allowed)) {
      // The operator reads why in the access log: which origin came, so that --base-url can be fixed.
      requestFacts(request).authFailure = `INVALID_ORIGIN ${loggableOrigin(request.headers.get("origin") ?? request.headers.get("referer") ?? "")}`;
      throw apiError("INVALID_ORIGIN");
    }
  });
}

/** What the log says of an Origin or Referer that is not a URL with an origin. */
export const MALFORMED_ORIGIN = "(malformed)";

/**
 * A refused Origin or Referer as the log shows it: its origin (scheme, host, port) and nothing else. A
 * Referer's path and query can hold a page's secrets (a reset link's token), and an Origin header is
 * whatever the client sent.
 */
function loggableOrigin(value: string): string {
  if (value === "null") return value;
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    return MALFORMED_ORIGIN;
  }
  // A URL without an origin of its own (`data:`, `javascript:`) serialises it as "null".
  return origin === "null" ? MALFORMED_ORIGIN : origin.slice(0, 200);
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/**
 * The origins a browser may come from to change state: the service's own and the trusted ones. On a
 * loopback base URL every loopback spelling of it is the service's own (a laptop's browser opens
 * `http://localhost:3000` as readily as `http://127.0.0.1:3000`).
 */
export function allowedOriginsFor(baseUrl: URL, trusted: readonly string[]): ReadonlySet<string> {
  const origins = new Set([baseUrl.origin, ...trusted]);
  if (LOOPBACK_NAMES.includes(baseUrl.hostname)) {
    for (const name of LOOPBACK_NAMES) origins.add(`${baseUrl.protocol}//${name}${baseUrl.port ? `:${baseUrl.port}` : ""}`);
  }
  return origins;
}
