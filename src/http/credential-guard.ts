import { Elysia } from "elysia";
import { type ApiError, unauthorized } from "./errors";
import { requestFacts } from "./request-context";

/**
 * The one credential guard for data routes. `X-API-Key` when present, else `Authorization: Bearer`.
 * Every failure is the same 401 (see `unauthorized`); the reason is kept for the log only. A principal
 * that passes is then admitted against its quota or rate limit.
 */

export type Principal =
  | { kind: "key"; id: string; userId: string; tier: "free" }
  | { kind: "trial"; id: string; tier: "anon"; /** epoch ms */ expiresAt: number };

export type CredentialResult = { ok: true; principal: Principal } | { ok: false; reason: string };

export interface CredentialVerifiers {
  apiKey(presented: string): CredentialResult;
  bearer(presented: string): CredentialResult;
}

/** Counts the request against the principal's quota: headers for every response, a refusal past it. */
export type Admission = (principal: Principal) => { headers: Record<string, string>; refusal?: ApiError };

export function authenticate(headers: Headers, verifiers: CredentialVerifiers): CredentialResult {
  const apiKey = headers.get("x-api-key");
  if (apiKey !== null) return verifiers.apiKey(apiKey.trim());
  const authorization = headers.get("authorization");
  if (authorization === null) return { ok: false, reason: "MISSING" };
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) return { ok: false, reason: "WRONG_SCHEME" };
  return verifiers.bearer(match[1]!);
}

export function credentialGuard(verifiers: CredentialVerifiers, admit: Admission) {
  return new Elysia().resolve({ as: "scoped" }, ({ request, set }) => {
    const result = authenticate(request.headers, verifiers);
    const facts = requestFacts(request);
    if (!result.ok) {
      facts.authFailure = result.reason;
      throw unauthorized();
    }
    facts.principalId = result.principal.id;
    const admission = admit(result.principal);
    // On the response whatever its status (the shell's error handler keeps them on errors too).
    Object.assign(set.headers, admission.headers);
    if (admission.refusal) throw admission.refusal;
    return { principal: result.principal };
  });
}
