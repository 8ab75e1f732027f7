/**
 * Per-request facts that the HTTP server learns outside Elysia (the peer address) or that routes learn
 * for the access log (who the caller was). Keyed by the Request object, so nothing leaks across requests.
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
}

const facts = new WeakMap<Request, RequestFacts>();
const unknownPeer = () => undefined;

export function requestFacts(request: Request): RequestFacts {
  let entry = facts.get(request);
  if (!entry) {
    entry = { peerAddress: unknownPeer, principalId: undefined, authFailure: undefined, errorCode: undefined };
    facts.set(request, entry);
  }
  return entry;
}
