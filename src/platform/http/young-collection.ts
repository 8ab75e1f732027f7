import { edenGC, fullGC, heapSize } from "bun:jsc";

/** How often the young generation is collected while requests arrive. */
const YOUNG_COLLECTION_INTERVAL_MS = 100;
/** How far the heap may grow past its size after the last whole collection before the next one. */
export const OLD_GROWTH_BYTES = 16 * 1024 * 1024;

export interface YoungCollection {
  /** Notes an answered request: the next tick collects. */
  answered(): void;
  stop(): void;
}

/** The whole-heap collection: when, and how. */
export interface WholeCollection {
  /** The heap's size as JavaScriptCore counts it (objects and the buffers they hold, mapped files included). */
  heapBytes(): number;
  collect(): unknown;
  growthBytes: number;
}

const JSC_WHOLE: WholeCollection = { heapBytes: heapSize, collect: fullGC, growthBytes: OLD_GROWTH_BYTES };

/**
 * Collects the young generation every `intervalMs` while requests are answered, and never when idle; and the
 * whole heap on such a tick once it has grown `growthBytes` past its size after the last whole collection.
 *
 * JavaScriptCore sizes its collections for throughput: a process allocates about its live heap again, and
 * at least 32 MB, before it collects. A worker's resident memory then peaks that far above its live data
 * under load, and that headroom is what took the nutrient mix of `bench/run` past its memory target. A
 * request's garbage dies young, so an eden collection (only what was allocated since the last one) every
 * 100 ms is small: it costs no throughput, collecting a little at a time rather than a lot (figures:
 * docs/performance.md). What survives one (the objects of requests in flight, cache entries pushed out
 * later) waits for a whole collection, and JavaScriptCore counts the catalog's mapped answers file (~180 MB, catalog/answer-file.ts)
 * as live heap when it decides when that is: left alone, it let that garbage grow by the file's size. Bun
 * offers no runtime setting for the thresholds themselves (`BUN_JSC_*` variables are read at start, and the
 * first process is the one a user starts).
 */
export function collectYoungWhileServing(
  intervalMs = YOUNG_COLLECTION_INTERVAL_MS,
  collect: () => unknown = edenGC,
  whole: WholeCollection = JSC_WHOLE,
): YoungCollection {
  let pending = false;
  let afterWhole = whole.heapBytes();
  const timer = setInterval(() => {
    if (!pending) return;
    pending = false;
    collect();
    if (whole.heapBytes() > afterWhole + whole.growthBytes) {
      whole.collect();
      afterWhole = whole.heapBytes();
    }
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
