import type { Clock } from "../clock";
import type { MaybePromise } from "../maybe-promise";

/**
 * The housekeeping job: state follows live objects, not history. Expired sessions, trial usage, redeemed
 * challenges, rate counters, long-revoked keys and this process's spent rate-limit leases are removed on
 * a timer, each run doing bounded work (at most `SWEEP_BATCH` rows a kind), so that a backlog (say a
 * burst from 100,000 spoofed client IPs) drains in short steps instead of one long write lock.
 */

/** Deletes at most `batch` rows of one kind of history that are due at `now`; returns how many went. */
export type Sweeper = (now: number, batch: number) => MaybePromise<number>;

const SWEEP_BATCH = 5000;
/** Well within the hour the contract allows between sweeps. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** After a run that hit a batch limit, the next comes soon, until the backlog is gone. */
const CATCH_UP_DELAY_MS = 1000;

export interface SweepReport {
  /** Rows removed, by kind. */
  readonly removed: Readonly<Record<string, number>>;
  /** Rate-limit leases this process still holds (live ones only, after the run). */
  readonly leases: number;
  /** A kind hit its batch limit: there is more to remove. */
  readonly more: boolean;
}

export function createHousekeeping(options: {
  sweepers: Readonly<Record<string, Sweeper>>;
  releaseLeases: () => number;
  clock: Clock;
  logError: (error: unknown) => void;
}) {
  let timer: ReturnType<typeof setTimeout> | undefined;

  const run = async (): Promise<SweepReport> => {
    const now = options.clock();
    const removed: Record<string, number> = {};
    let more = false;
    // One kind after another: each is a short write of its own, never one long lock.
    for (const [kind, sweep] of Object.entries(options.sweepers)) {
      removed[kind] = await sweep(now, SWEEP_BATCH);
      more ||= removed[kind]! >= SWEEP_BATCH;
    }
    return { removed, leases: options.releaseLeases(), more };
  };

  const schedule = (delayMs: number) => {
    timer = setTimeout(async () => {
      let more = false;
      try {
        more = (await run()).more;
      } catch (error) {
        // A storage fault (full disk) is retried at the next run; the server keeps serving meanwhile.
        options.logError(error);
      }
      // Unless stopped while this run waited on the store.
      if (timer !== undefined) schedule(more ? CATCH_UP_DELAY_MS : SWEEP_INTERVAL_MS);
    }, delayMs);
    // Housekeeping never keeps a process alive on its own.
    timer.unref();
  };

  return {
    /** One bounded run, now (tests drive it with an injected clock). */
    run,
    start(): void {
      if (timer === undefined) schedule(CATCH_UP_DELAY_MS);
    },
    stop(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
