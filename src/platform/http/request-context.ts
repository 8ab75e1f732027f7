import type { HeadValues, ReadHeader } from "./head-limit";
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
  /**
   * The configured client-IP header's value (null: absent), when the server read it in its one pass over
   * the request's head (head-limit.ts); undefined: not read yet (a request handled without the server).
   */
  clientIpHeaderValue: string | null | undefined;
  /** The headers the hot paths read, as the server read them in its pass over the head (`headerOf`). */
  head: HeadValues | undefined;
  /**
   * The request's id (the proxy's X-Request-Id, else one made), given by the server before the app answers;
   * undefined without the server.
   */
  requestId: string | undefined;
  /**
   * Set by whoever built the answer with `requestId` among its headers at construction (cached-response.ts),
   * so that the server does not add it afterwards: a header set on a Response once built is one more call
   * into the runtime, which builds the Response's Headers object for it.
   */
  requestIdSent: boolean;
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
    entry = {
      peerAddress: unknownPeer,
      clientIpHeaderValue: undefined,
      head: undefined,
      requestId: undefined,
      requestIdSent: false,
      principalId: undefined,
      authFailure: undefined,
      errorCode: undefined,
      url: undefined,
      match: undefined,
    };
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

/**
 * A request header the hot paths read: as the server read it in its one pass over the head (head-limit.ts),
 * else (a request handled without the server) asked of the request's Headers.
 */
export function headerOf(request: Request, name: ReadHeader): string | null {
  const head = requestFacts(request).head;
  return head === undefined ? request.headers.get(name) : head[name];
}
