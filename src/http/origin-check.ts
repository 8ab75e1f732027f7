import { Elysia } from "elysia";
import { ApiError } from "./errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for cookie-authenticated state changes: a request whose Origin (or, without one, Referer)
 * names another site is refused. Requests with neither header (curl, scripts, server-side clients) pass:
 * browsers always send Origin on cross-site POST and DELETE.
 */
export function isAllowedOrigin(headers: Headers, allowed: ReadonlySet<string>): boolean {
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
      throw new ApiError(403, "INVALID_ORIGIN", "This request came from a site that is not allowed to make it.");
    }
  });
}
