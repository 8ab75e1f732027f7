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
 * under load, and that headroom is what `bench/run` measured above 150 MB in the nutrient mix (145–165 MB,
 * against 128–141 MB with this). A request's garbage dies young, so an eden collection (only what was
 * allocated since the last one) every 100 ms is small. Measured interleaved, it cost nothing: searches
 * ran 4–8 % faster and details and the nutrient mix the same, collecting a few MB at a time rather than
 * tens. Bun offers no runtime setting for the thresholds themselves (`BUN_JSC_*` variables are read at
 * start, and the first process is the one a user starts).
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
