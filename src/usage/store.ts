import type { MaybePromise } from "../platform/maybe-promise";

/**
 * Requests per API key per hour (design §12): statistics, not quota. Each process counts in memory
 * (usage/recorder.ts) and adds its counts now and then; adding is atomic, so any number of processes and
 * instances can add to the same key's hour. Times are epoch milliseconds.
 */

/** One key's requests in one hour: `hour` is the hour's start; `refused` are its 429s. */
export interface HourUsage {
  hour: number;
  allowed: number;
  refused: number;
}

/** Counts to add to one key's hour. */
export interface UsageDelta extends HourUsage {
  keyId: string;
}

export interface UsageStore {
  /**
   * Adds each delta to its key's hour (creating the hour), atomically: parallel adds of one hour, from any
   * process, sum exactly. A delta of a key that no longer exists (its account was deleted) is dropped,
   * never stored. At most one delta per key and hour in one call.
   */
  add(deltas: readonly UsageDelta[]): MaybePromise<void>;
  /** The key's hours from `since` on, oldest first; hours without requests are not kept. */
  hours(keyId: string, since: number): MaybePromise<HourUsage[]>;
  /** Deletes up to `batch` hours older than `before`; returns how many went. */
  sweep(before: number, batch: number): MaybePromise<number>;
}
