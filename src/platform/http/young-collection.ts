import { edenGC } from "bun:jsc";

/** How often the young generation is collected while requests arrive. */
const YOUNG_COLLECTION_INTERVAL_MS = 100;

export interface YoungCollection {
  /** Notes an answered request: the next tick collects. */
  answered(): void;
  stop(): void;
}

/**
 * Collects the young generation every `intervalMs` while requests are answered, and never when idle.
 *
 * JavaScriptCore sizes its collections for throughput: a process allocates about its live heap again, and
 * at least 32 MB, before it collects. A worker's resident memory then peaks that far above its live data
 * under load, and that headroom is what took the nutrient mix of `bench/run` past its memory target. A
 * request's garbage dies young, so an eden collection (only what was allocated since the last one) every
 * 100 ms is small: it costs no throughput, collecting a little at a time rather than a lot (figures:
 * docs/performance.md). Bun offers no runtime setting for the thresholds themselves (`BUN_JSC_*` variables
 * are read at start, and the first process is the one a user starts).
 */
export function collectYoungWhileServing(intervalMs = YOUNG_COLLECTION_INTERVAL_MS, collect: () => unknown = edenGC): YoungCollection {
  let pending = false;
  const timer = setInterval(() => {
    if (!pending) return;
    pending = false;
    collect();
  }, intervalMs);
  // A timer of its own must not keep a stopping server's process alive.
  timer.unref();
  return {
    answered() {
      pending = true;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
