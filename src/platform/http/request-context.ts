import type { HeadValues, ReadHeader } from "./head-limit";
import type { RouteMatch } from "./route";
import { parseRequestUrl, type RequestUrl } from "./request-url";

/**
 * Per-request facts that the HTTP server learns outside Elysia (the peer address), that routes learn for
 * the access log (who the caller was), and what is worked out once from the request for everyone who needs
 * it (its URL's parts, its route). Kept on the Request object itself, so nothing leaks across requests.
 */
/** What tells a request's TCP peer: the server (Bun's `server.requestIP`), for a request it handed in. */
interface PeerLookup {
  requestIP(request: Request): { address: string } | null;
}

export interface RequestFacts {
  /**
   * Who can tell the TCP peer's address (the server, and the request as it handed it in: a copy is unknown
   * to it), set by the server; asked only when the client-IP rule needs it (`peerAddressOf`): Bun's
   * `requestIP` costs a system call a request, a large share of a bare server's time (docs/performance.md),
   * and behind a proxy that sets the client-IP header it is never needed.
   */
  peerLookup: PeerLookup | undefined;
  received: Request | undefined;
  /** The peer's address once asked (undefined: the server could not tell); null: not asked yet. */
  peerAddress: string | undefined | null;
  /**
   * Whether the peer's address will be asked for this request whatever it answers (the access log takes the
   * TCP peer: no client-IP header), set by the server: an answer may then ask it early (`askPeerEarly`).
   */
  peerNeeded: boolean;
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

/**
 * The facts' property on the Request: a symbol, so no one else's. Read several times per request by the
 * layers that answer it: a property read is a fraction of a WeakMap lookup, and a WeakMap's entries, one
 * per request, are more for every collection to go through.
 */
const FACTS = Symbol("requestFacts");
type WithFacts = Request & { [FACTS]?: RequestFacts };

export function requestFacts(request: Request): RequestFacts {
  let entry = (request as WithFacts)[FACTS];
  if (entry === undefined) {
    entry = {
      peerLookup: undefined,
      received: undefined,
      peerAddress: null,
      peerNeeded: false,
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
    (request as WithFacts)[FACTS] = entry;
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

/** The request's TCP peer address, asked of the server the first time (undefined without a server). */
export function peerAddressOf(facts: RequestFacts): string | undefined {
  if (facts.peerAddress === null) facts.peerAddress = facts.received === undefined ? undefined : facts.peerLookup?.requestIP(facts.received)?.address;
  return facts.peerAddress;
}

/**
 * Asks the peer's address now if it will be asked anyway (`peerNeeded`): for an answer that has just entered
 * the kernel to read its body, so that the two kernel entries come back to back rather than with the
 * response's making between them (cached-response.ts; docs/performance.md, "What a system call costs here").
 */
export function askPeerEarly(facts: RequestFacts): void {
  if (facts.peerNeeded) peerAddressOf(facts);
}
