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

// KEYS[1] the token's count. ARGV: quota, ttlMs. The check and the increment are one step on the server:
// parallel requests, from any instance, count exactly `quota` and no more.
const CONSUME = redisScript(`
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return false end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
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
    async consumeTrialRequest(jti, quota, expiresAt) {
      return (await redis.evalScript(CONSUME, [`${prefix}trial:${jti}`], [String(quota), ttlMs(expiresAt)])) as number | null;
    },
    sweepExpired: () => 0,
  };
}
