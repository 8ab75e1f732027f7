import { type RedisConnection, redisScript } from "../platform/storage/redis";
import type { Grant, LimitStore } from "./store";

/**
 * The rate limiter's counters in Redis (`--redis-url`), shared by every instance: the semantics of
 * limits/sqlite-store.ts, one hash per bucket whose fields are slot numbers and values the requests
 * counted in them.
 *
 * Atomicity: a grant is one Lua script (give back, prune, sum, count), and Redis runs a script with no
 * other command in between, so parallel grants from any number of instances never count past the limit.
 *
 * Nothing needs sweeping: slots a window no longer reaches are pruned by the next grant of their bucket,
 * and the whole hash expires once its newest slot has left every window (a bucket seen once, such as one
 * of many spoofed client IPs, goes by itself). `sweep` therefore has nothing to do and returns 0.
 */

// KEYS[1] the bucket's hash. ARGV: limit, slot, slots, wanted, ttlMs, unusedSlot, unusedN, allOrNothing (1/0).
// A count given back to zero is deleted, so `oldest` is the oldest slot still holding requests.
const GRANT = redisScript(`
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local slot = tonumber(ARGV[2])
local first = slot - tonumber(ARGV[3])
local wanted = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
local unused = tonumber(ARGV[7])
if unused > 0 then
  local held = tonumber(redis.call('HGET', key, ARGV[6]))
  if held then
    if held > unused then redis.call('HSET', key, ARGV[6], held - unused) else redis.call('HDEL', key, ARGV[6]) end
  end
end
local used = 0
local oldest = false
local counters = redis.call('HGETALL', key)
for i = 1, #counters, 2 do
  local s = tonumber(counters[i])
  if s < first then
    redis.call('HDEL', key, counters[i])
  else
    local n = tonumber(counters[i + 1])
    used = used + n
    if n > 0 and (not oldest or s < oldest) then oldest = s end
  end
end
local granted
if ARGV[8] == '1' then
  if wanted <= limit - used then granted = wanted else granted = 0 end
else
  granted = math.max(0, math.min(wanted, limit - used))
end
if granted > 0 then
  redis.call('HINCRBY', key, ARGV[2], granted)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
  if not oldest or slot < oldest then oldest = slot end
end
return {granted, used + granted, oldest}
`);

// KEYS[1] the bucket's hash. ARGV: slot, n. Never below zero, and never creates a counter.
const RELEASE = redisScript(`
local held = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if held then
  local n = tonumber(ARGV[2])
  if held > n then redis.call('HSET', KEYS[1], ARGV[1], held - n) else redis.call('HDEL', KEYS[1], ARGV[1]) end
end
return 0
`);

/** `prefix` keeps these keys apart from anything else in the database (and one test's from another's). */
export function createRedisLimitStore(redis: RedisConnection, prefix: string): LimitStore {
  const key = (bucket: string) => `${prefix}limit:${bucket}`;
  return {
    async grant(bucket, limit, slot, slots, slotMs, wanted, unused = null, allOrNothing = false): Promise<Grant> {
      // A slot counts until the end of slot + slots, and the slot granted in is the current one: the hash
      // is kept that long after its last grant (relative to Redis's clock, so the instances' clocks need
      // not agree with it). A TTL is only ever lengthened.
      const ttlMs = Math.ceil((slots + 1) * slotMs);
      const args = [limit, slot, slots, wanted, ttlMs, unused?.slot ?? 0, unused?.n ?? 0, allOrNothing ? 1 : 0].map(String);
      const [granted, used, oldest] = (await redis.evalScript(GRANT, [key(bucket)], args)) as [number, number, number | null];
      return { granted, used, oldestSlot: oldest };
    },
    async release(bucket, slot, n) {
      await redis.evalScript(RELEASE, [key(bucket)], [String(slot), String(n)]);
    },
    async forget(buckets) {
      if (buckets.length > 0) await redis.send("DEL", buckets.map(key));
    },
    sweep: () => 0,
  };
}
