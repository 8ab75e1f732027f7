import { acceptsZstd, isZstdJson, type ZstdJson } from "./content-encoding";
import type { DirectHandler, RequestTarget } from "./direct-routes";
import { errorDescription } from "./error-catalog";
import { ApiError, type ErrorDescription, errorResponse, JSON_CONTENT_TYPE, SECURITY_HEADERS } from "./errors";
import { isPromise, type MaybePromise } from "../maybe-promise";
import { type RequestFacts, requestFacts } from "./request-context";

/** Every authentication failure on a data route, whatever the cause, is this one answer (built once). */
const UNAUTHORIZED = errorDescription("UNAUTHORIZED", []);

/**
 * The one credential guard for data routes. `X-API-Key` when present, else `Authorization: Bearer`.
 * Every failure is the same 401 (`UNAUTHORIZED`); the reason is kept for the log only. A principal
 * that passes is then admitted against its quota or rate limit.
 */

export type Principal =
  | { kind: "key"; id: string; userId: string; tier: "free" }
  | { kind: "trial"; id: string; tier: "anon"; /** epoch ms */ expiresAt: number };

export type CredentialResult = { ok: true; principal: Principal } | { ok: false; reason: string };

/** Each may answer from memory (synchronously) or ask a store over the network (a promise). */
export interface CredentialVerifiers {
  apiKey(presented: string): MaybePromise<CredentialResult>;
  bearer(presented: string): MaybePromise<CredentialResult>;
}

/** What admitting a principal gives: headers for every response, a refusal past its quota. */
export interface Admitted {
  headers: Record<string, string>;
  refusal?: ErrorDescription;
}

/** Counts the request against the principal's quota. */
export type Admission = (principal: Principal) => MaybePromise<Admitted>;

export function authenticate(headers: Headers, verifiers: CredentialVerifiers): MaybePromise<CredentialResult> {
  const apiKey = headers.get("x-api-key");
  if (apiKey !== null) return verifiers.apiKey(apiKey.trim());
  const authorization = headers.get("authorization");
  if (authorization === null) return { ok: false, reason: "MISSING" };
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) return { ok: false, reason: "WRONG_SCHEME" };
  return verifiers.bearer(match[1]!);
}

export type GuardOutcome =
  | { ok: true; principal: Principal; /** RateLimit headers, for the response whatever its status. */ headers: Record<string, string> }
  | { ok: false; response: Response };

/** The guard as one plain function of the request, so that routes answered outside Elysia use it too. */
export type CredentialGuard = (request: Request) => MaybePromise<GuardOutcome>;

export function createCredentialGuard(verifiers: CredentialVerifiers, admit: Admission): CredentialGuard {
  // Written out with explicit branches rather than `then` callbacks: on the synchronous path (the embedded
  // store) a request then allocates no closures, and this runs on every data request.
  const admitted = (request: Request, result: CredentialResult): MaybePromise<GuardOutcome> => {
    const facts = requestFacts(request);
    if (!result.ok) {
      facts.authFailure = result.reason;
      return { ok: false, response: errorResponse(UNAUTHORIZED) };
    }
    const { principal } = result;
    facts.principalId = principal.id;
    const admission = admit(principal);
    return isPromise(admission) ? admission.then((settled) => outcome(facts, principal, settled)) : outcome(facts, principal, admission);
  };
  return (request) => {
    const result = authenticate(request.headers, verifiers);
    return isPromise(result) ? result.then((settled) => admitted(request, settled)) : admitted(request, result);
  };
}

function outcome(facts: RequestFacts, principal: Principal, admission: Admitted): GuardOutcome {
  if (admission.refusal) {
    facts.errorCode = admission.refusal.code;
    return { ok: false, response: errorResponse(admission.refusal, admission.headers) };
  }
  return { ok: true, principal, headers: admission.headers };
}

/**
 * A data route: the guard first, then `answer` gives the JSON (text, UTF-8 bytes, or stored compressed).
 * Its ApiErrors (a 404) keep the RateLimit headers, as every guarded response does.
 */
export function guardedJson(
  guard: CredentialGuard,
  answer: (target: RequestTarget, principal: Principal) => string | Uint8Array | ZstdJson,
): DirectHandler {
  const respond = (request: Request, target: RequestTarget, outcome: GuardOutcome): Response => {
    if (!outcome.ok) return outcome.response;
    try {
      const body = answer(target, outcome.principal);
      // The headers object is this request's own: completed in place rather than copied.
      const headers = outcome.headers;
      headers["content-type"] = JSON_CONTENT_TYPE;
      headers["x-content-type-options"] = SECURITY_HEADERS["x-content-type-options"];
      if (!isZstdJson(body)) return new Response(body, { headers });
      headers.vary = "Accept-Encoding";
      if (!acceptsZstd(request.headers.get("accept-encoding"))) return new Response(body.decoded(), { headers });
      headers["content-encoding"] = "zstd";
      return new Response(body.zstd, { headers });
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, outcome.headers);
      throw error;
    }
  };
  return (request, target) => {
    const outcome = guard(request);
    return isPromise(outcome) ? outcome.then((settled) => respond(request, target, settled)) : respond(request, target, outcome);
  };
}
