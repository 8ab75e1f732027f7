import { type EncodedAnswer, negotiate, perRequestJson } from "./content-encoding";
import { entityTag, etagBase, ifNoneMatchHits } from "./etag";
import { JSON_CONTENT_TYPE } from "./errors";
import { askPeerEarly, headerOf, requestFacts } from "./request-context";

/**
 * The data routes' successful answers: SR28 never changes within a build, so every 200 is cacheable by
 * the client (`private`: it answers one credential, whose quota it counted) for a day, carries a strong
 * entity tag, and varies by `Accept-Encoding`. A request whose `If-None-Match` names the answer gets a
 * 304 without a body: it has been counted against the quota like any other (the caller's guard did), and
 * `headers` (RateLimit) go on it too.
 */
export const DATA_CACHE_CONTROL = "private, max-age=86400";

/** An answer that is not JSON (a label's SVG), or that varies by more than `Accept-Encoding`. */
export interface Representation {
  readonly body: EncodedAnswer | string;
  readonly contentType: string;
  /** The request headers besides `Accept-Encoding` that chose it (`Accept`). */
  readonly vary?: string;
}

/**
 * `headers` is this request's own object (the guard's RateLimit headers): completed in place.
 * `conditional: false` (a POST) ignores `If-None-Match`: RFC 9110 reserves the 304 for GET and HEAD.
 */
export function cachedJsonResponse(request: Request, answer: EncodedAnswer | string, headers: Record<string, string>, conditional = true): Response {
  return cachedResponse(request, answer, headers, conditional, JSON_CONTENT_TYPE, "Accept-Encoding");
}

/** The same for a representation of its own kind. */
export function cachedRepresentation(request: Request, answer: Representation, headers: Record<string, string>): Response {
  return cachedResponse(request, answer.body, headers, true, answer.contentType, answer.vary ? `Accept-Encoding, ${answer.vary}` : "Accept-Encoding");
}

function cachedResponse(request: Request, answer: EncodedAnswer | string, headers: Record<string, string>, conditional: boolean, contentType: string, vary: string): Response {
  const encoded = typeof answer === "string" ? perRequestJson(answer, etagBase(answer)) : answer;
  const coding = negotiate(request, encoded);
  const form = encoded.open(coding);
  headers.etag = entityTag(form.etag, coding);
  headers["cache-control"] = DATA_CACHE_CONTROL;
  headers.vary = vary;
  // The request's id goes in with the rest (the server gave it one: request-context.ts), rather than after.
  const facts = requestFacts(request);
  if (facts.requestId !== undefined) headers["x-request-id"] = facts.requestId;
  let response: Response;
  if (conditional && ifNoneMatchHits(headerOf(request, "if-none-match"), form.etag)) response = new Response(null, { status: 304, headers });
  else {
    headers["content-type"] = contentType;
    if (coding !== "identity") headers["content-encoding"] = coding;
    const body = form.body();
    // The body may have just been read from a file (a plain detail's pread): the peer's address, another
    // kernel entry the log makes anyway, is asked next to it rather than once the response is built.
    askPeerEarly(facts);
    response = new Response(body, { headers });
  }
  facts.requestIdSent = facts.requestId !== undefined;
  return response;
}

