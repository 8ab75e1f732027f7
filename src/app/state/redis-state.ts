import { openRedisKeyRevocations } from "../../keys/redis-revocations";
import type { KeyRevocations } from "../../keys/store";
import { createRedisLimitStore } from "../../limits/redis-store";
import type { LimitStore } from "../../limits/store";
import { then } from "../../platform/maybe-promise";
import type { RedisUrl } from "../../platform/config/config";
import { openRedis } from "../../platform/storage/redis";
import type { StateStores } from "./state-stores";

/**
 * What instances share through Redis (design §11): the rate-limit windows and the revocation signal,
 * both of which may be lost without breaking a rule for long. A window lost with a Redis that kept nothing
 * (a restart without persistence, a key evicted at maxmemory, a failover to a replica that had not caught
 * up) starts afresh: at most one more window's worth for whoever was counted in it. A lost signal makes
 * every instance drop its whole key cache. Everything that must outlive Redis stays in the state store:
 * a trial token's 30 requests are over its whole life and each challenge solution is accepted once, so
 * their counts are the state store's (one write per trial request; a used-up token is refused from
 * memory), whatever Redis keeps.
 */
export interface RedisCounters {
  readonly limits: LimitStore;
  readonly keyRevocations: KeyRevocations;
  /** Rejects unless Redis answers PING. */
  ping(): Promise<void>;
  /** Rejects unless Redis takes a write (the storage health's probe). */
  probeWrite(): Promise<void>;
  close(): void;
}

export interface RedisCountersOptions {
  /** Put before every key and the revocation channel, to share a database with other users. */
  prefix?: string;
}

const DEFAULT_PREFIX = "foodapi:";

/**
 * Connected, answering and subscribed, or a storage fault when Redis cannot be reached within
 * platform/storage/redis.ts's bounds (`url` was checked by the config loader, parseRedisUrl).
 */
export async function openRedisCounters(url: RedisUrl, options: RedisCountersOptions = {}): Promise<RedisCounters> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const redis = openRedis(url);
  try {
    await redis.ping();
    const keyRevocations = await openRedisKeyRevocations(url, redis, `${prefix}key-revocations`);
    return {
      limits: createRedisLimitStore(redis, prefix),
      keyRevocations,
      ping: () => redis.ping(),
      async probeWrite() {
        await redis.send("SET", [`${prefix}storage-probe`, String(Date.now()), "PX", "60000"]);
      },
      close() {
        keyRevocations.close();
        redis.close();
      },
    };
  } catch (error) {
    redis.close();
    throw error;
  }
}

/**
 * `state` with its rate limits and revocation signal in Redis; `ping`, `probeWrite` and `close` cover
 * both. When Redis cannot be opened the rejection leaves `state` open (it is the caller's).
 */
export async function withRedis(state: StateStores, redisUrl: RedisUrl, options: RedisCountersOptions = {}): Promise<StateStores> {
  return stateWithCounters(state, await openRedisCounters(redisUrl, options));
}

/** `state` with the counters of an open `RedisCounters` (withRedis, when they are opened already). */
export function stateWithCounters(state: StateStores, counters: RedisCounters): StateStores {
  return {
    accounts: state.accounts,
    sessions: state.sessions,
    keys: state.keys,
    keyRevocations: counters.keyRevocations,
    limits: counters.limits,
    trial: state.trial,
    usage: state.usage,
    ping: () => then(state.ping(), () => counters.ping()),
    probeWrite: () => then(state.probeWrite(), () => counters.probeWrite()),
    close() {
      counters.close();
      return state.close();
    },
  };
}
