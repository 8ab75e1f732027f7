import type { RouteMatch } from "./route";
import { parseRequestUrl, type RequestUrl } from "./request-url";

/**
 * Per-request facts that the HTTP server learns outside Elysia (the peer address), that routes learn for
 * the access log (who the caller was), and what is worked out once from the request for everyone who needs
 * it (its URL's parts, its route). Keyed by the Request object, so nothing leaks across requests.
 */
export interface RequestFacts {
  /**
   * The TCP peer's address, asked of the server only when the client-IP rule needs it: Bun's `requestIP`
   * costs a system call a request, a large share of a bare server's time (docs/performance.md), and
   * behind a proxy that sets the client-IP header it is never needed.
   */
  peerAddress: () => string | undefined;
  /** The id of the credential that passed the guard: a key id or a trial token id. Never a secret. */
  principalId: string | undefined;
  /** Why the guard refused the credential (MISSING, MALFORMED, NOT_FOUND, ...): for the log only. */
  authFailure: string | undefined;
  /** The error code of a refusal (UNAUTHORIZED, RATE_LIMITED, ...): the cause the metrics count it under. */
  errorCode: string | undefined;
  /** The URL's parts, once asked (`requestUrl`). */
  url: RequestUrl | undefined;
  /** The request's route, once matched (route-table.ts `matchOf`). */
  match: RouteMatch | undefined;
}

const facts = new WeakMap<Request, RequestFacts>();
const unknownPeer = () => undefined;

export function requestFacts(request: Request): RequestFacts {
  let entry = facts.get(request);
  if (!entry) {
    entry = { peerAddress: unknownPeer, principalId: undefined, authFailure: undefined, errorCode: undefined, url: undefined, match: undefined };
    facts.set(request, entry);
  }
  return entry;
}

/**
 * The request's URL taken apart (request-url.ts), the first time it is asked, and kept with the request.
 * `facts`: the request's, when the caller holds them already.
 */
export function requestUrl(request: Request, facts: RequestFacts = requestFacts(request)): RequestUrl {
  return (facts.url ??= parseRequestUrl(request.url));
}
