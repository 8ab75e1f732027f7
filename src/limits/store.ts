import type { MaybePromise } from "../platform/maybe-promise";

/**
 * The contract of the rate limiter's counters (limits/limiter.ts): requests counted per bucket in time
 * slots, shared by every process that shares the store. Each backend passes test/contracts/.
 */
export interface LimitStore {
  /**
   * Counts up to `wanted` requests in `slot` unless the `slots + 1` newest slots already hold `limit`,
   * having first given back `unused` requests an earlier grant counted but never served. Check and count
   * are one atomic step: parallel grants, from any process, never count more than `limit`. With
   * `allOrNothing` (a request that costs several units, such as a batch lookup) either all of `wanted` is
   * counted or, when it does not fit, nothing.
   */
  grant(
    bucket: string,
    limit: number,
    slot: number,
    slots: number,
    slotMs: number,
    wanted: number,
    unused?: { slot: number; n: number } | null,
    allOrNothing?: boolean,
  ): MaybePromise<Grant>;
  /** Gives back requests that were counted in `slot` but not served. */
  release(bucket: string, slot: number, n: number): MaybePromise<void>;
  /**
   * Deletes every counter of these buckets, at once (the buckets of a deleted account's keys: nothing of
   * it is kept). A grant or release of one afterwards starts it afresh.
   */
  forget(buckets: readonly string[]): MaybePromise<void>;
  /**
   * Deletes up to `batch` counters that no window counts any more at `now` (a bucket seen once, say one of
   * many spoofed client IPs, would otherwise stay forever). Returns how many went.
   */
  sweep(now: number, batch: number): MaybePromise<number>;
}

export interface Grant {
  /** How many requests were counted for the caller in `slot` (0: the window is full). */
  granted: number;
  /** Requests counted in the slots covering the window, after the grant. */
  used: number;
  /** The oldest slot still holding requests, or null when none. */
  oldestSlot: number | null;
}

/** What a grant counts of `wanted` with `left` free in the window (every backend's rule). */
export function grantable(wanted: number, left: number, allOrNothing: boolean): number {
  if (allOrNothing) return wanted <= left ? wanted : 0;
  return Math.max(0, Math.min(wanted, left));
}
