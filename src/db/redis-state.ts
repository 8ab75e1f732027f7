import { openRedisKeyRevocations } from "../keys/redis-revocations";
import type { KeyRevocations } from "../keys/store";
import { createRedisLimitStore } from "../limits/redis-store";
import type { LimitStore } from "../limits/store";
import { then } from "../maybe-promise";
import { withRedisCounters } from "../trial/redis-store";
import type { TrialStore } from "../trial/store";
import { openRedis, parseRedisUrl } from "./redis";
import type { StateStores } from "./state-stores";

/**
 * The counters every instance must share exactly (decisions §11), in Redis: rate-limit windows, the
 * trial's per-token quota and redeemed challenges, and the revocation signal. Everything else stays in the
 * state store.
 */
export interface RedisCounters {
  readonly limits: LimitStore;
  /** `state`'s trial store with its counters in Redis (the signer secret stays in `state`). */
  trialCounters(state: TrialStore): TrialStore;
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
 * Connected, answering and subscribed, or a rejection (RedisUrlInvalid for a URL that is not redis:// or
 * rediss://; a storage fault when Redis cannot be reached within db/redis.ts's bounds).
 */
export async function openRedisCounters(url: string, options: RedisCountersOptions = {}): Promise<RedisCounters> {
  parseRedisUrl(url);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const redis = openRedis(url);
  try {
    await redis.ping();
    const keyRevocations = await openRedisKeyRevocations(url, redis, `${prefix}key-revocations`);
    return {
      limits: createRedisLimitStore(redis, prefix),
      trialCounters: (state) => withRedisCounters(state, redis, prefix),
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
 * `state` with its rate limits, trial counters and revocation signal in Redis; `ping`, `probeWrite` and
 * `close` cover both. When Redis cannot be opened the rejection leaves `state` open (it is the caller's).
 */
export async function withRedis(state: StateStores, redisUrl: string, options: RedisCountersOptions = {}): Promise<StateStores> {
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
    trial: counters.trialCounters(state.trial),
    usage: state.usage,
    ping: () => then(state.ping(), () => counters.ping()),
    probeWrite: () => then(state.probeWrite(), () => counters.probeWrite()),
    close() {
      counters.close();
      return state.close();
    },
  };
}
