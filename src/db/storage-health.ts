import type { Database } from "bun:sqlite";
import { type StorageFault, storageFault } from "./storage-fault";

/**
 * Whether the state database takes writes, for `/healthz`. Unhealthy from the moment a request meets a
 * storage fault (or the probe does) until a probe write succeeds again, so it recovers by itself once the
 * disk has room. The probe rewrites one row, at most once a second: `/healthz` may be polled thousands of
 * times a second, and a write per poll would cost more than the rest of the answer.
 */
export interface StorageHealth {
  /** A storage fault met by a request. Logged once per outage, not once per request. */
  recordFault(fault: StorageFault): void;
  /** False while writes fail. */
  writable(): boolean;
}

const PROBE_INTERVAL_MS = 1000;

export function createStorageHealth(sqlite: Database, log: (message: string) => void, now: () => number = () => performance.now()): StorageHealth {
  const probe = sqlite.query<unknown, [number]>(
    "INSERT INTO storage_probe (id, written_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at",
  );
  let failing: StorageFault | undefined;
  let probedAt = -Infinity;

  const recordFault = (fault: StorageFault) => {
    if (!failing) log(`storage fault ${fault.code} (${fault.message}): writes answer 503 and /healthz 503 until a write succeeds`);
    failing = fault;
  };

  return {
    recordFault,
    writable() {
      if (now() - probedAt < PROBE_INTERVAL_MS) return !failing;
      probedAt = now();
      try {
        probe.run(Date.now());
      } catch (error) {
        const fault = storageFault(error);
        if (!fault) throw error;
        recordFault(fault);
        return false;
      }
      if (failing) log(`storage recovered: writes succeed again (after ${failing.code})`);
      failing = undefined;
      return true;
    },
  };
}
