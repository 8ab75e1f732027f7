import type { Clock } from "../clock";
import type { RateSpec } from "../config/config";
import type { Admitted, CredentialResult, Principal } from "../http/credential-guard";
import { quotaRefusal } from "../http/error-catalog";
import { rateLimitHeaders } from "../limits/http";
import type { Limiter } from "../limits/limiter";
import { type MaybePromise, then } from "../maybe-promise";
import type { ActiveKeys } from "./active-keys";
import { verifyKey } from "./service";

/**
 * An API key as the data routes' credential: `verify` finds the key (the guard's `X-API-Key` verifier),
 * `admit` counts the request against the free tier's rolling window.
 */
export function keyCredential(deps: { keys: ActiveKeys; clock: Clock; limiter: Limiter; freeLimit: RateSpec }) {
  return {
    verify(presented: string): MaybePromise<CredentialResult> {
      return then(verifyKey(deps.keys, deps.clock, presented), (check): CredentialResult =>
        check.ok
          ? { ok: true, principal: { kind: "key", id: check.key.id, userId: check.key.userId, tier: "free" } }
          : { ok: false, reason: check.reason },
      );
    },
    admit(principal: Extract<Principal, { kind: "key" }>): MaybePromise<Admitted> {
      return then(deps.limiter.consume(`key:${principal.id}`, deps.freeLimit), (result) => ({
        headers: rateLimitHeaders("free", result),
        refusal: result.allowed ? undefined : quotaRefusal("RATE_LIMITED", result.retryAfterSeconds),
      }));
    },
  };
}
