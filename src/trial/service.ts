import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config/config";
import { apiError } from "./errors";
import { hmacSha256, randomHex } from "../platform/security/tokens";
import { ENTRY_OVERHEAD_BYTES, LruCache, stringBytes } from "../platform/lru";
import { isPromise, type MaybePromise, then } from "../platform/maybe-promise";
import { checkChallengeToken } from "./challenge";
import type { TrialStore } from "./store";
import { issueTrialToken, TRIAL_TOKEN_LIFETIME_SECONDS, TRIAL_TOKEN_REQUESTS } from "./token";
import { verifyTurnstile } from "./turnstile";

export interface TrialSecrets {
  /** Signs trial tokens. */
  readonly token: string;
  /** Signs ALTCHA challenges: derived from the token secret, so one secret is all an operator manages. */
  readonly challenge: string;
}

/**
 * FOODAPI_TRIAL_SECRET, else a secret generated once and kept in the state store: read at the first trial
 * request or challenge, not at the start (its store, and drizzle with it, load then: design §18). After the
 * first read the secrets are at hand synchronously; a failed read is tried again by the next request.
 */
export function trialSecrets(store: TrialStore, config: Pick<Config, "trialSecret">): () => MaybePromise<TrialSecrets> {
  let secrets: TrialSecrets | undefined;
  let reading: Promise<TrialSecrets> | undefined;
  const derive = (token: string): TrialSecrets => {
    // Derived at the first challenge, not with the token secret.
    let challenge: string | undefined;
    return {
      token,
      get challenge() {
        return (challenge ??= hmacSha256(token, "foodapi altcha challenge v1", "hex"));
      },
    };
  };
  return () => {
    if (secrets) return secrets;
    if (reading) return reading;
    if (config.trialSecret !== undefined) return (secrets = derive(config.trialSecret));
    const token = store.secret("trial-token", () => randomHex(32));
    if (!isPromise(token)) return (secrets = derive(token));
    reading = token.then(
      (value) => (secrets = derive(value)),
      (error) => {
        reading = undefined;
        throw error;
      },
    );
    return reading;
  };
}

/** The per-IP limit of both trial routes, by the name the composition root gives its setting (`--trial-ip-limit`, src/app/app.ts). */
export const TRIAL_LIMIT = "trial";

export interface TrialDeps {
  store: TrialStore;
  clock: Clock;
  /** The trial's secrets, read at their first use (`trialSecrets`). */
  secrets: () => MaybePromise<TrialSecrets>;
  turnstile: { secretKey: string; verifyUrl: string; timeoutMs: number } | undefined;
}


/** Exchanges a solved bot challenge for a trial token. Each solution is accepted once. */
export async function redeemChallenge(deps: TrialDeps, challengeToken: string, clientIp: string): Promise<{ token: string; expiresAt: string }> {
  if (deps.turnstile) {
    const { verifyUrl, secretKey, timeoutMs } = deps.turnstile;
    const result = await verifyTurnstile({ url: verifyUrl, secret: secretKey, token: challengeToken, remoteIp: clientIp, timeoutMs });
    if (result === "unavailable") {
      throw apiError("CHALLENGE_UNAVAILABLE");
    }
    if (result === "failed") throw apiError("CHALLENGE_FAILED");
  } else {
    const check = await checkChallengeToken((await deps.secrets()).challenge, deps.clock, challengeToken);
    // Recorded only once verified, so unverified payloads cannot fill the store.
    if (!check.ok || !(await deps.store.markChallengeUsed(check.id, check.expiresAt))) throw apiError("CHALLENGE_FAILED");
  }
  const { token, claims } = issueTrialToken((await deps.secrets()).token, deps.clock);
  return { token, expiresAt: new Date(claims.exp * 1000).toISOString() };
}

export interface TrialQuota {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the token expires: its quota never comes back before that. */
  resetSeconds: number;
}

/** Tokens known to be used up, per process: ~64 bytes of id each, so a few thousand fit in a megabyte. */
const EXHAUSTED_MEMO_BYTES = 1024 * 1024;

/**
 * Counts one request against a token's lifetime quota (exact under concurrency and across processes, one
 * atomic write per request). A token's quota never comes back, so once the store says a token is used up
 * this process remembers it and refuses it from memory: a client hammering with an exhausted token costs
 * no write transaction (bounded memo; a forgotten token is simply asked of the store again).
 */
export function createTrialQuota(deps: Pick<TrialDeps, "store" | "clock">) {
  const exhausted = new LruCache<string, true>(EXHAUSTED_MEMO_BYTES);
  /** `used`: the count after this request, or null when refused, with `usedBefore` what the refusal found. */
  const quota = (jti: string, expiresAtMs: number, used: number | null, usedBefore = TRIAL_TOKEN_REQUESTS): TrialQuota => {
    if (used === null && usedBefore >= TRIAL_TOKEN_REQUESTS) exhausted.set(jti, true, stringBytes(jti) + ENTRY_OVERHEAD_BYTES);
    return {
      allowed: used !== null,
      limit: TRIAL_TOKEN_REQUESTS,
      remaining: Math.max(0, TRIAL_TOKEN_REQUESTS - (used ?? usedBefore)),
      windowSeconds: TRIAL_TOKEN_LIFETIME_SECONDS,
      resetSeconds: Math.max(1, Math.ceil((expiresAtMs - deps.clock()) / 1000)),
    };
  };
  return (jti: string, expiresAtMs: number, cost = 1): MaybePromise<TrialQuota> => {
    if (exhausted.get(jti)) return quota(jti, expiresAtMs, null);
    const used = deps.store.consumeTrialRequest(jti, TRIAL_TOKEN_REQUESTS, expiresAtMs, cost);
    if (cost === 1) return isPromise(used) ? used.then((settled) => quota(jti, expiresAtMs, settled)) : quota(jti, expiresAtMs, used);
    // A batch that does not fit may leave the token some quota: the refusal says how much.
    return then(used, (settled) =>
      settled !== null ? quota(jti, expiresAtMs, settled) : then(deps.store.trialRequestsUsed(jti), (before) => quota(jti, expiresAtMs, null, before)),
    );
  };
}
