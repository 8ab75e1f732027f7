import type { MaybePromise } from "../platform/maybe-promise";

/**
 * Used challenges and token counts are kept this long past their `expiresAt`: an instance whose clock is
 * behind still takes the challenge or token for live until its own clock gets there, and must still find it
 * redeemed or counted. Keeping a record longer only costs a row; dropping it early would let a replay
 * through.
 */
export const TRIAL_EXPIRY_MARGIN_MS = 60_000;

/** The contract of the trial capability's store: the signer secret, redeemed challenges, per-token usage. */
export interface TrialStore {
  /** The named secret, created with `generate()` if absent; concurrent first starts agree on one value. */
  secret(name: string, generate: () => string): MaybePromise<string>;
  /** Records a redeemed challenge; false when it was redeemed before (a replay). Of parallel redemptions one wins. */
  markChallengeUsed(id: string, expiresAt: number): MaybePromise<boolean>;
  /**
   * Counts `n` requests (default one) against a token's lifetime quota: the count after them, or null
   * when they do not all fit (then nothing is counted). Parallel requests, from any process, never count
   * past `quota`.
   */
  consumeTrialRequest(jti: string, quota: number, expiresAt: number, n?: number): MaybePromise<number | null>;
  /** The requests counted for a token so far (0 for one never seen): for the headers of a refusal. */
  trialRequestsUsed(jti: string): MaybePromise<number>;
  /**
   * Forgets up to `batch` each of expired tokens' usage (they fail the signature check's expiry anyway)
   * and of redeemed challenges past their own expiry (a replay of one fails its expiry check), once expired
   * for TRIAL_EXPIRY_MARGIN_MS (`expiresAt <= now - margin`). Returns how many went.
   */
  sweepExpired(now: number, batch: number): MaybePromise<number>;
}
