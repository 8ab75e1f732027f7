import { readJsonBody } from "./body";
import { cachedJsonResponse, cachedRepresentation, type Representation } from "./cached-response";
import type { EncodedAnswer } from "./content-encoding";
import type { DirectHandler, RequestTarget } from "./route";
import { errorDescription } from "./error-catalog";
import { ApiError, type ErrorDescription, errorResponse, SECURITY_HEADERS } from "./errors";
import { isPromise, type MaybePromise, then } from "../maybe-promise";
import { headerOf, type RequestFacts, requestFacts } from "./request-context";

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

/**
 * Counts the request against the principal's quota: one unit, or `cost` (a batch lookup), all or nothing.
 */
export type Admission = (principal: Principal, cost?: number) => MaybePromise<Admitted>;

function authenticate(request: Request, verifiers: CredentialVerifiers): MaybePromise<CredentialResult> {
  const apiKey = headerOf(request, "x-api-key");
  if (apiKey !== null) return verifiers.apiKey(apiKey.trim());
  const authorization = headerOf(request, "authorization");
  if (authorization === null) return { ok: false, reason: "MISSING" };
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) return { ok: false, reason: "WRONG_SCHEME" };
  return verifiers.bearer(match[1]!);
}

type GuardOutcome =
  | { ok: true; principal: Principal; /** RateLimit headers, for the response whatever its status. */ headers: Record<string, string> }
  | { ok: false; response: Response };

/**
 * The guard as one plain function of the request, so that routes answered outside Elysia use it too.
 * `authenticate` and `admit` are its two steps, for a route that reads its body between them
 * (`guardedBody`).
 */
export type CredentialGuard = ((request: Request) => MaybePromise<GuardOutcome>) & {
  authenticate(request: Request): MaybePromise<{ ok: true; principal: Principal } | { ok: false; response: Response }>;
  admit(request: Request, principal: Principal, cost: number): MaybePromise<GuardOutcome>;
};

export function createCredentialGuard(verifiers: CredentialVerifiers, admit: Admission): CredentialGuard {
  // Written out with explicit branches rather than `then` callbacks: on the synchronous path (the embedded
  // store) a request then allocates no closures, and this runs on every data request.
  const identified = (request: Request, result: CredentialResult): { ok: true; principal: Principal } | { ok: false; response: Response } => {
    const facts = requestFacts(request);
    if (!result.ok) {
      facts.authFailure = result.reason;
      return { ok: false, response: errorResponse(UNAUTHORIZED) };
    }
    facts.principalId = result.principal.id;
    // The verifier's result is the identity already: no copy of it per request.
    return result;
  };
  const admitted = (request: Request, result: CredentialResult): MaybePromise<GuardOutcome> => {
    const identity = identified(request, result);
    if (!identity.ok) return identity;
    const { principal } = identity;
    const facts = requestFacts(request);
    const admission = admit(principal);
    return isPromise(admission) ? admission.then((settled) => outcome(facts, principal, settled)) : outcome(facts, principal, admission);
  };
  const guard = (request: Request): MaybePromise<GuardOutcome> => {
    const result = authenticate(request, verifiers);
    return isPromise(result) ? result.then((settled) => admitted(request, settled)) : admitted(request, result);
  };
  return Object.assign(guard, {
    authenticate(request: Request) {
      const result = authenticate(request, verifiers);
      return isPromise(result) ? result.then((settled) => identified(request, settled)) : identified(request, result);
    },
    admit: (request: Request, principal: Principal, cost: number) => then(admit(principal, cost), (settled) => outcome(requestFacts(request), principal, settled)),
  });
}

function outcome(facts: RequestFacts, principal: Principal, admission: Admitted): GuardOutcome {
  if (admission.refusal) {
    facts.errorCode = admission.refusal.code;
    return { ok: false, response: errorResponse(admission.refusal, admission.headers) };
  }
  return { ok: true, principal, headers: admission.headers };
}

/**
 * A data route: the guard first, then `answer` gives the JSON (text made for this request, or an answer
 * with its codings ready), sent as cached-response.ts says (ETag, 304, content coding). Its ApiErrors (a
 * 404) keep the RateLimit headers, as every guarded response does.
 */
export function guardedJson(
  guard: CredentialGuard,
  answer: (target: RequestTarget, principal: Principal) => string | EncodedAnswer,
): DirectHandler {
  return guarded(guard, (request, target, principal, headers) => cachedJsonResponse(request, answer(target, principal), headers));
}

/** The same for an answer chosen by the request (`Accept`) among representations of its own kinds (a label's SVG). */
export function guardedRepresentation(guard: CredentialGuard, answer: (request: Request, target: RequestTarget) => Representation): DirectHandler {
  return guarded(guard, (request, target, _principal, headers) => cachedRepresentation(request, answer(request, target), headers));
}

function guarded(
  guard: CredentialGuard,
  send: (request: Request, target: RequestTarget, principal: Principal, headers: Record<string, string>) => Response,
): DirectHandler {
  const respond = (request: Request, target: RequestTarget, outcome: GuardOutcome): Response => {
    if (!outcome.ok) return outcome.response;
    try {
      // The headers object is this request's own: completed in place rather than copied.
      const headers = outcome.headers;
      headers["x-content-type-options"] = SECURITY_HEADERS["x-content-type-options"];
      return send(request, target, outcome.principal, headers);
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

/** A data route's body, as the route understands it: what it is worth in quota units, and the answer. */
export interface BodyRoute<Body> {
  /** The parsed JSON as the route's request; throws the 400 naming the field. */
  parse(json: unknown): Body;
  /** The units a valid request costs, all or nothing (a batch lookup: one per distinct food). */
  cost(body: Body): number;
  /** The answer's JSON (an ApiError it throws keeps the RateLimit headers). */
  answer(body: Body, principal: Principal): string | EncodedAnswer;
}

/**
 * A data route with a body (a POST). The credential is checked before the body is read: without a valid
 * one, the 401 whatever the body, and nothing is counted. Then the body is read and parsed here, never
 * before: a body that is too large, not JSON or not a request of the route's costs one unit and is
 * answered with the RateLimit headers, like any counted request (a 429 once the quota is spent); a valid
 * one costs what the route says, all or nothing. The answer carries an ETag like every data answer, but
 * `If-None-Match` is not honoured (RFC 9110 keeps 304 to GET and HEAD).
 */
export function guardedBody<Body>(guard: CredentialGuard, route: BodyRoute<Body>): DirectHandler {
  return async (request) => {
    const identity = await guard.authenticate(request);
    if (!identity.ok) return identity.response;
    const { principal } = identity;
    let body: Body;
    try {
      body = route.parse(await readJsonBody(request));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const counted = await guard.admit(request, principal, 1);
      return counted.ok ? errorResponse(error, counted.headers) : counted.response;
    }
    const admitted = await guard.admit(request, principal, route.cost(body));
    if (!admitted.ok) return admitted.response;
    const headers = admitted.headers;
    headers["x-content-type-options"] = SECURITY_HEADERS["x-content-type-options"];
    try {
      return cachedJsonResponse(request, route.answer(body, principal), headers, false);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, headers);
      throw error;
    }
  };
}
