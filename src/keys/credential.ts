import type { Clock } from "../platform/clock";
import type { RateSpec } from "../platform/config/config";
import type { Admitted, CredentialResult, Principal } from "../platform/http/credential-guard";
import { quotaRefusal } from "./errors";
import { rateLimitHeaders } from "../limits/http";
import type { Limiter, LimitResult } from "../limits/limiter";
import { isPromise, type MaybePromise } from "../platform/maybe-promise";
import type { ActiveKeys } from "./active-keys";
import { type KeyCheck, keyUseBucket, verifyKey } from "./service";
import type { KeyUse } from "./use";

/**
 * An API key as the data routes' credential: `verify` finds the key (the guard's `X-API-Key` verifier),
 * `admit` counts the request against the free tier's rolling window, and in the key's usage (in memory;
 * usage/recorder.ts writes it later).
 */
export function keyCredential(deps: { keys: ActiveKeys; clock: Clock; limiter: Limiter; freeLimit: RateSpec; usage: Pick<KeyUse, "count"> }) {
  return {
    verify(presented: string): MaybePromise<CredentialResult> {
      const check = verifyKey(deps.keys, deps.clock, presented);
      return isPromise(check) ? check.then(asCredential) : asCredential(check);
    },
    admit(principal: Extract<Principal, { kind: "key" }>, cost = 1): MaybePromise<Admitted> {
      const result = deps.limiter.consume(keyUseBucket(principal.id), deps.freeLimit, cost);
      return isPromise(result) ? result.then((settled) => counted(deps.usage, principal.id, settled)) : counted(deps.usage, principal.id, result);
    },
  };
}

// Module functions, not callbacks made per request: the data routes' hot path (credential-guard.ts).
const asCredential = (check: KeyCheck): CredentialResult =>
  check.ok ? { ok: true, principal: { kind: "key", id: check.key.id, userId: check.key.userId, tier: "free" } } : { ok: false, reason: check.reason };

const counted = (usage: Pick<KeyUse, "count">, keyId: string, result: LimitResult): Admitted => {
  usage.count(keyId, result.allowed);
  return asAdmission(result);
};

const asAdmission = (result: LimitResult): Admitted => ({
  headers: rateLimitHeaders("free", result),
  refusal: result.allowed ? undefined : quotaRefusal("RATE_LIMITED", result.retryAfterSeconds),
});
