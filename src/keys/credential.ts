import type { Clock } from "../clock";
import type { RateSpec } from "../config/config";
import type { CredentialResult, Principal } from "../http/credential-guard";
import { quotaRefusal } from "../http/error-catalog";
import type { ErrorDescription } from "../http/errors";
import { rateLimitHeaders } from "../limits/http";
import type { Limiter } from "../limits/limiter";
import { verifyKey } from "./service";
import type { KeyStore } from "./store";

/**
 * An API key as the data routes' credential: `verify` finds the key (the guard's `X-API-Key` verifier),
 * `admit` counts the request against the free tier's rolling window.
 */
export function keyCredential(deps: { keys: KeyStore; clock: Clock; limiter: Limiter; freeLimit: RateSpec }) {
  return {
    verify(presented: string): CredentialResult {
      const check = verifyKey(deps.keys, deps.clock, presented);
      return check.ok
        ? { ok: true, principal: { kind: "key", id: check.key.id, userId: check.key.userId, tier: "free" } }
        : { ok: false, reason: check.reason };
    },
    admit(principal: Extract<Principal, { kind: "key" }>): { headers: Record<string, string>; refusal?: ErrorDescription } {
      const result = deps.limiter.consume(`key:${principal.id}`, deps.freeLimit);
      return {
        headers: rateLimitHeaders("free", result),
        refusal: result.allowed ? undefined : quotaRefusal("RATE_LIMITED", result.retryAfterSeconds),
      };
    },
  };
}
