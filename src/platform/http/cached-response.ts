import { type EncodedAnswer, negotiate, perRequestJson } from "./content-encoding";
import { entityTag, etagBase, ifNoneMatchHits } from "./etag";
import { JSON_CONTENT_TYPE } from "./errors";

/**
 * The data routes' successful answers: SR28 never changes within a build, so every 200 is cacheable by
 * the client (`private`: it answers one credential, whose quota it counted) for a day, carries a strong
 * entity tag, and varies by `Accept-Encoding`. A request whose `If-None-Match` names the answer gets a
 * 304 without a body: it has been counted against the quota like any other (the caller's guard did), and
 * `headers` (RateLimit) go on it too.
 */
export const DATA_CACHE_CONTROL = "private, max-age=86400";

/**
 * `headers` is this request's own object (the guard's RateLimit headers): completed in place.
 * `conditional: false` (a POST) ignores `If-None-Match`: RFC 9110 reserves the 304 for GET and HEAD.
 */
export function cachedJsonResponse(request: Request, answer: EncodedAnswer | string, headers: Record<string, string>, conditional = true): Response {
  const encoded = typeof answer === "string" ? perRequestJson(answer, etagBase(answer)) : answer;
  const coding = negotiate(request, encoded);
  const form = encoded.open(coding);
  headers.etag = entityTag(form.etag, coding);
  headers["cache-control"] = DATA_CACHE_CONTROL;
  headers.vary = "Accept-Encoding";
  if (conditional && ifNoneMatchHits(request.headers.get("if-none-match"), form.etag)) return new Response(null, { status: 304, headers });
  headers["content-type"] = JSON_CONTENT_TYPE;
  if (coding !== "identity") headers["content-encoding"] = coding;
  return new Response(form.body(), { headers });
}
