import type { Admitted, CredentialResult, Principal } from "../platform/http/credential-guard";
import { quotaRefusal } from "./errors";
import { rateLimitHeaders } from "../limits/http";
import { isPromise, type MaybePromise } from "../platform/maybe-promise";
import type { Clock } from "../platform/clock";
import { createTrialQuota, type TrialDeps, type TrialQuota, type TrialSecrets } from "./service";
import { verifyTrialToken } from "./token";

/**
 * A trial token as the data routes' credential: `verify` checks its signature and expiry (the guard's
 * bearer verifier), `admit` counts the request against its lifetime quota.
 */
export function trialCredential(deps: Pick<TrialDeps, "store" | "clock" | "secrets">) {
  const consume = createTrialQuota(deps);
  return {
    verify(presented: string): MaybePromise<CredentialResult> {
      // No callback made per request: the secrets are at hand after the first read (trialSecrets).
      const secrets = deps.secrets();
      return isPromise(secrets) ? secrets.then((read) => verifyWith(read, deps.clock, presented)) : verifyWith(secrets, deps.clock, presented);
    },
    admit(principal: Extract<Principal, { kind: "trial" }>, cost = 1): MaybePromise<Admitted> {
      const quota = consume(principal.id, principal.expiresAt, cost);
      return isPromise(quota) ? quota.then(asAdmission) : asAdmission(quota);
    },
  };
}

function verifyWith(secrets: TrialSecrets, clock: Clock, presented: string): CredentialResult {
  const check = verifyTrialToken(secrets.token, clock, presented);
  return check.ok
    ? { ok: true, principal: { kind: "trial", id: check.claims.jti, tier: "anon", expiresAt: check.claims.exp * 1000 } }
    : { ok: false, reason: check.reason };
}

// A module function, not a callback made per request: the data routes' hot path (credential-guard.ts).
const asAdmission = (quota: TrialQuota): Admitted => ({
  headers: rateLimitHeaders("trial", quota),
  refusal: quota.allowed ? undefined : quotaRefusal("TRIAL_QUOTA_EXHAUSTED", quota.resetSeconds),
});
