import { Elysia } from "elysia";
import type { RateSpec } from "../platform/config/config";
import { clientIpOf } from "../platform/http/client-ip";
import { tooManyRequests } from "./errors";
import type { Limiter, LimitResult } from "./limiter";

/** The IETF draft's headers: `RateLimit-Policy: "free";q=1000;w=3600` and `RateLimit: "free";r=998;t=3412`. */
export function rateLimitHeaders(policy: string, quota: { limit: number; windowSeconds: number; remaining: number; resetSeconds: number }) {
  return {
    "ratelimit-policy": `"${policy}";q=${quota.limit};w=${quota.windowSeconds}`,
    // The draft's `t` never exceeds the window, though a slot's worth of conservatism can put the real wait
    // a little past it (Retry-After, which must not invite an early retry, keeps the real wait).
    ratelimit: `"${policy}";r=${quota.remaining};t=${Math.min(quota.resetSeconds, quota.windowSeconds)}`,
  };
}

/**
 * Limits every request to the routes of the instance that uses it, per client IP and per route as matched
 * (its template, `/api/auth/sign-in/email`), never the raw path: a trailing slash, a prefix, another Host
 * or percent-encoding reaches the same route and so the same bucket. Runs at transform, before body
 * validation, so malformed attempts count too.
 */
export function ipRateLimit(options: { limiter: Limiter; spec: RateSpec; scope: string; clientIpHeader: string | null }) {
  return new Elysia().onTransform({ as: "scoped" }, async ({ request, route }) => {
    const bucket = `${options.scope}:${route}:${clientIpOf(request, options.clientIpHeader)}`;
    const result = await options.limiter.consume(bucket, options.spec);
    if (!result.allowed) {
      throw tooManyRequests("TOO_MANY_REQUESTS", result.retryAfterSeconds);
    }
  });
}
