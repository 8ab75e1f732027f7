import type { Clock } from "../clock";
import type { RateSpec } from "../config/config";
import type { LimitStore } from "./store";

/**
 * The one rate limiter. Every limit in the service (sign-in and sign-up per IP, trial routes per IP,
 * free-tier keys) is a named policy consumed here; the result carries what the RateLimit and Retry-After
 * headers need.
 */
export interface LimitResult {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly windowSeconds: number;
  /** Seconds until the oldest request in the window leaves it and frees a slot (the header's `t`). */
  readonly resetSeconds: number;
  /** Seconds until the next request would be allowed (for Retry-After); 0 when allowed. */
  readonly retryAfterSeconds: number;
}

export interface Limiter {
  consume(bucket: string, spec: RateSpec): LimitResult;
}

export function createLimiter(store: LimitStore, clock: Clock): Limiter {
  return {
    consume(bucket, spec) {
      const now = clock();
      const windowMs = spec.windowSeconds * 1000;
      const use = store.consume(bucket, spec.limit, windowMs, now);
      const remaining = Math.max(0, spec.limit - use.used);
      // The oldest request in the window is the next to leave it and free a slot.
      const untilFree = use.oldestAt === null ? 0 : Math.max(1, Math.ceil((use.oldestAt + windowMs - now) / 1000));
      return {
        allowed: use.admitted,
        limit: spec.limit,
        remaining,
        windowSeconds: spec.windowSeconds,
        resetSeconds: untilFree,
        retryAfterSeconds: use.admitted ? 0 : untilFree,
      };
    },
  };
}
