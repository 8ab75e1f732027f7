import type { RateSpec } from "../platform/config/config";
import { clientIpOf } from "../platform/http/client-ip";
import type { Route } from "../platform/http/route";
import { tooManyRequests } from "./errors";
import type { Limiter } from "./limiter";

/** The IETF draft's headers: `RateLimit-Policy: "free";q=1000;w=3600` and `RateLimit: "free";r=998;t=3412`. */
export function rateLimitHeaders(policy: string, quota: { limit: number; windowSeconds: number; remaining: number; resetSeconds: number }) {
  return {
    "ratelimit-policy": policyHeader(policy, quota.limit, quota.windowSeconds),
    // The draft's `t` never exceeds the window, though a slot's worth of conservatism can put the real wait
    // a little past it (Retry-After, which must not invite an early retry, keeps the real wait).
    ratelimit: `"${policy}";r=${quota.remaining};t=${Math.min(quota.resetSeconds, quota.windowSeconds)}`,
  };
}

/**
 * A policy's `RateLimit-Policy` value, the same on every answer it counts: made when first asked, kept per
 * policy name (a handful, all in the code) with the limit and window it was made for.
 */
const policyHeaders = new Map<string, { limit: number; windowSeconds: number; value: string }>();
function policyHeader(policy: string, limit: number, windowSeconds: number): string {
  const known = policyHeaders.get(policy);
  if (known !== undefined && known.limit === limit && known.windowSeconds === windowSeconds) return known.value;
  const value = `"${policy}";q=${limit};w=${windowSeconds}`;
  policyHeaders.set(policy, { limit, windowSeconds, value });
  return value;
}

/**
 * The per-IP limits, by the name a route gives in its declaration (`ipLimit`, platform/http/route-notes.ts).
 * Each counts per client IP and per route template (`/api/auth/sign-in/email`), never the raw path: a
 * trailing slash, a prefix, another Host or percent-encoding reaches the same route and so the same
 * bucket.
 */
export function ipLimits(options: { limiter: Limiter; clientIpHeader: string | null; limits: Readonly<Record<string, RateSpec>> }) {
  const count = async (request: Request, route: Route): Promise<void> => {
    const name = route.notes!.ipLimit!;
    const bucket = `${name}:${route.template}:${clientIpOf(request, options.clientIpHeader)}`;
    const result = await options.limiter.consume(bucket, options.limits[name]!);
    if (!result.allowed) throw tooManyRequests("TOO_MANY_REQUESTS", result.retryAfterSeconds);
  };
  return {
    /** Counts a request of a route that names a limit; throws the 429 past it (limits/elysia-hook.ts for Elysia's routes). */
    count,
    /** Refuses, at start, a route that names a limit there is none of. */
    checkNamed(routes: readonly Route[]): void {
      for (const route of routes) {
        const name = route.notes?.ipLimit;
        if (name !== undefined && !Object.hasOwn(options.limits, name)) throw new Error(`route ${route.method} ${route.template}: no per-IP limit named ${name}`);
      }
    },
  };
}
