import { isPromise, type MaybePromise } from "../maybe-promise";
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
  writable(): MaybePromise<boolean>;
}

const PROBE_INTERVAL_MS = 1000;

/** `probeWrite` throws unless the state takes a write (StateStores.probeWrite). */
export function createStorageHealth(probeWrite: () => MaybePromise<void>, log: (message: string) => void, now: () => number = () => performance.now()): StorageHealth {
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
      const failed = (error: unknown) => {
        const fault = storageFault(error);
        if (!fault) throw error;
        recordFault(fault);
        return false;
      };
      const succeeded = () => {
        if (failing) log(`storage recovered: writes succeed again (after ${failing.code})`);
        failing = undefined;
        return true;
      };
      let probed: MaybePromise<void>;
      try {
        probed = probeWrite();
      } catch (error) {
        return failed(error);
      }
      return isPromise(probed) ? probed.then(succeeded, failed) : succeeded();
    },
  };
}
