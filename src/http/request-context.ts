/**
 * Per-request facts that the HTTP server learns outside Elysia (the peer address) or that routes learn
 * for the access log (who the caller was). Keyed by the Request object, so nothing leaks across requests.
 */
export interface RequestFacts {
  /**
   * The TCP peer's address, asked of the server only when the client-IP rule needs it: Bun's `requestIP`
   * costs a system call and ~4 µs a request, a fifth of a bare server's time, and behind a proxy that sets
   * the client-IP header it is never needed.
   */
  peerAddress: () => string | undefined;
  /** The id of the credential that passed the guard: a key id or a trial token id. Never a secret. */
  principalId: string | undefined;
  /** Why the guard refused the credential (MISSING, MALFORMED, NOT_FOUND, ...): for the log only. */
  authFailure: string | undefined;
  /** The error code of a refusal (UNAUTHORIZED, RATE_LIMITED, ...): the cause the metrics count it under. */
  errorCode: string | undefined;
  /** The request id (response-headers.ts `requestIdOf`), for the log line and the `X-Request-Id` header. */
  requestId: string;
  /**
   * Whether the response's own headers record already carries `X-Request-Id` (`carryRequestId`). Otherwise
   * the server sets it on the finished Response, which costs that Response a headers object of its own
   * (~1 µs; the data routes build their headers as a record and carry it instead).
   */
  requestIdCarried: boolean;
}

const facts = new WeakMap<Request, RequestFacts>();
const unknownPeer = () => undefined;

export function requestFacts(request: Request): RequestFacts {
  let entry = facts.get(request);
  if (!entry) {
    entry = { peerAddress: unknownPeer, principalId: undefined, authFailure: undefined, errorCode: undefined, requestId: "", requestIdCarried: false };
    facts.set(request, entry);
  }
  return entry;
}

/** Adds the request's id to a response headers record that is this request's own. */
export function carryRequestId(facts: RequestFacts, headers: Record<string, string>): void {
  if (facts.requestId === "") return;
  headers["x-request-id"] = facts.requestId;
  facts.requestIdCarried = true;
}
