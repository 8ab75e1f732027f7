import type { Clock } from "../platform/clock";
import { isPromise } from "../platform/maybe-promise";
import type { UsageDelta, UsageStore } from "./store";

export const HOUR_MS = 3600_000;
/**
 * Counts are written at most this long after the request (design §12: a crash loses at most 5 s of
 * them). Each process writes its own counts: with N workers, N small writes every interval at most.
 */
const USAGE_FLUSH_INTERVAL_MS = 2000;
/** Keys × hours held in memory before a write is made early (bounds a process's memory under many keys). */
const FLUSH_EARLY_AT = 20_000;
/** What a failed write hands back for the next one at most; past it, counts are dropped (statistics). */
const KEEP_AFTER_FAILURE_MAX = 100_000;

/** The start of the hour `ms` falls in. */
export const hourOf = (ms: number) => ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS);

interface Counts {
  allowed: number;
  refused: number;
}

/**
 * Requests per key per hour, counted in this process's memory on the data routes' hot path (a map
 * lookup and an increment, no I/O) and added to the store in one batch a few seconds later, on a timer
 * that runs only while there is something to write, and at shutdown (`flush`).
 */
export interface UsageRecorder {
  /** One request of the key: admitted (`allowed`) or refused with 429. */
  count(keyId: string, allowed: boolean): void;
  /** Writes what is counted so far (the timer does it by itself; shutdown and tests call it). */
  flush(): Promise<void>;
  /** Stops the timer (what is counted stays, for a last `flush`). */
  stop(): void;
}

export function createUsageRecorder(deps: { store: UsageStore; clock: Clock; logError: (error: unknown) => void; intervalMs?: number }): UsageRecorder {
  const intervalMs = deps.intervalMs ?? USAGE_FLUSH_INTERVAL_MS;
  // Counts by hour, then by key: in steady state a request finds both maps and allocates nothing.
  let byHour = new Map<number, Map<string, Counts>>();
  // The hour being counted and its map, so that a request within it finds its map without arithmetic.
  let currentHour = Number.NaN;
  let current: Map<string, Counts> | undefined;
  let entries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let writing: Promise<void> = Promise.resolve();
  let queued = false;

  const schedule = () => {
    if (timer !== undefined || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, intervalMs);
    // Usage never keeps a process alive on its own.
    timer.unref();
  };

  const take = (): UsageDelta[] => {
    const deltas: UsageDelta[] = [];
    for (const [hour, keys] of byHour) for (const [keyId, c] of keys) deltas.push({ keyId, hour, allowed: c.allowed, refused: c.refused });
    byHour = new Map();
    current = undefined;
    currentHour = Number.NaN;
    entries = 0;
    return deltas;
  };

  const giveBack = (deltas: UsageDelta[]) => {
    for (const d of deltas) {
      if (entries >= KEEP_AFTER_FAILURE_MAX) return;
      const c = countsOf(d.keyId, d.hour);
      c.allowed += d.allowed;
      c.refused += d.refused;
    }
  };

  const mapOf = (hour: number): Map<string, Counts> => {
    currentHour = hour;
    current = byHour.get(hour);
    if (current === undefined) byHour.set(hour, (current = new Map()));
    return current;
  };

  const countsOf = (keyId: string, hour: number): Counts => {
    const keys = hour === currentHour && current !== undefined ? current : mapOf(hour);
    let c = keys.get(keyId);
    if (c === undefined) {
      keys.set(keyId, (c = { allowed: 0, refused: 0 }));
      entries++;
      schedule();
    }
    return c;
  };

  // One write at a time: a flush waits for the one before, so two never carry the same counts; while one
  // is queued, asking again joins it (it takes whatever is counted when it runs).
  const flush = (): Promise<void> => {
    if (queued) return writing;
    queued = true;
    return (writing = writing.then(async () => {
      queued = false;
      if (entries === 0) return;
      const deltas = take();
      try {
        const added = deps.store.add(deltas);
        if (isPromise(added)) await added;
      } catch (error) {
        // The store is down (or the disk full): the counts wait for the next write, within a bound.
        deps.logError(error);
        if (!stopped) giveBack(deltas);
      }
    }));
  };

  return {
    count(keyId, allowed) {
      const now = deps.clock();
      // Within the hour being counted (the common case) no hour is computed.
      const inHour = now >= currentHour && now - currentHour < HOUR_MS;
      const c = countsOf(keyId, inHour ? currentHour : hourOf(now));
      if (allowed) c.allowed++;
      else c.refused++;
      if (entries >= FLUSH_EARLY_AT) void flush();
    },
    flush,
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
