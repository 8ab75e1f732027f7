import { type RedisConnection, redisScript } from "../db/redis";
import type { TrialStore } from "./store";

/**
 * The trial's counters in Redis (`--redis-url`): redeemed challenges and per-token usage, shared by every
 * instance. The signer secret is not a counter: it stays in the state store, whose `secret` the composed
 * store uses.
 *
 * Each record expires by itself a margin after the `expiresAt` it was given, so `sweepExpired` has
 * nothing to do and returns 0.
 */

/**
 * Records are kept this long past their `expiresAt`: an instance whose clock is behind still takes the
 * challenge or token for live until its own clock gets there, and must still find it redeemed or counted.
 * Keeping a record longer only costs memory; dropping it early would let a replay through.
 */
export const TRIAL_EXPIRY_MARGIN_MS = 60_000;

// KEYS[1] the token's count. ARGV: quota, ttlMs, n. The check and the increment are one step on the server:
// parallel requests, from any instance, count exactly `quota` and no more; `n` that do not all fit count none.
const CONSUME = redisScript(`
local held = redis.call('GET', KEYS[1])
local n = tonumber(ARGV[3])
if tonumber(held or '0') + n > tonumber(ARGV[1]) then return false end
local used = redis.call('INCRBY', KEYS[1], n)
if not held then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return used
`);

/**
 * A `TrialStore` with `state`'s secret and the counters in Redis. The time to live is relative (PX), taken
 * from this instance's clock, which is the one that checks the expiry: Redis's own clock does not matter.
 */
export function withRedisCounters(state: TrialStore, redis: RedisConnection, prefix: string): TrialStore {
  const ttlMs = (expiresAt: number) => String(Math.max(0, Math.ceil(expiresAt - Date.now())) + TRIAL_EXPIRY_MARGIN_MS);
  return {
    secret: (name, generate) => state.secret(name, generate),
    async markChallengeUsed(id, expiresAt) {
      // SET NX: of parallel redemptions exactly one creates the key.
      return (await redis.send("SET", [`${prefix}challenge:${id}`, "1", "NX", "PX", ttlMs(expiresAt)])) === "OK";
    },
    async consumeTrialRequest(jti, quota, expiresAt, n = 1) {
      return (await redis.evalScript(CONSUME, [`${prefix}trial:${jti}`], [String(quota), ttlMs(expiresAt), String(n)])) as number | null;
    },
    async trialRequestsUsed(jti) {
      return Number((await redis.send("GET", [`${prefix}trial:${jti}`])) ?? 0);
    },
    sweepExpired: () => 0,
  };
}
