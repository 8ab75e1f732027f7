import type { MaybePromise } from "../platform/maybe-promise";
import { HOUR_MS, hourOf } from "./recorder";
import type { HourUsage, UsageStore } from "./store";

/** A key's usage is shown, and kept, for this many hours: the current one and the 167 before (7 days). */
export const USAGE_HOURS = 7 * 24;

/** The first hour shown at `now`; older hours are swept by the housekeeping job. */
export const usageSince = (now: number) => hourOf(now) - (USAGE_HOURS - 1) * HOUR_MS;

/** An hour as the contract writes it: `2026-11-22T13:00:00Z` (whole hours, so no fraction). */
const isoHour = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

export async function keyUsage(store: UsageStore, keyId: string, now: number) {
  const hours = await store.hours(keyId, usageSince(now));
  return { items: hours.map((h: HourUsage) => ({ hour: isoHour(h.hour), allowed: h.allowed, refused: h.refused })) };
}

/** The housekeeping job's sweeper: hours no longer shown. */
export const usageSweeper =
  (store: UsageStore) =>
  (now: number, batch: number): MaybePromise<number> =>
    store.sweep(usageSince(now), batch);
