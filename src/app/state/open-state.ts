import type { Config, RedisUrl } from "../../platform/config/config";
import { openSqliteState } from "./sqlite-state";
import type { StateStores } from "./state-stores";
import { dataDirUnusable, StateStoreUnusable, storageFault } from "../../platform/storage/storage-fault";

/**
 * The state stores the settings name (design §11): SQLite in the data directory unless `--state-url`
 * names PostgreSQL; the rate-limit windows and the revocation signal in Redis when `--redis-url` is set
 * (app/state/redis-state.ts says why the trial's counts stay in the state store). The one place that chooses;
 * everything after it sees only `StateStores`. The networked backends are loaded only when named, so the
 * default start loads neither.
 */
export async function openState(config: Pick<Config, "dataDir" | "stateUrl" | "redisUrl">, log: (line: string) => void): Promise<StateStores> {
  const state = config.stateUrl
    ? await (await import("./postgres-state")).openPostgresState(config.stateUrl, log)
    : openSqliteState(config.dataDir, log);
  if (!config.redisUrl) return state;
  try {
    return await withRedisRetried(state, config.redisUrl);
  } catch (error) {
    await state.close();
    throw error;
  }
}

/** Where the state is, for start-up lines: never the URLs' `href`, which may carry passwords. */
export function describeState(config: Pick<Config, "dataDir" | "stateUrl" | "redisUrl">): string {
  const postgres = config.stateUrl;
  const state = postgres ? `state in PostgreSQL at ${postgres.host}${postgres.database ? `/${postgres.database}` : ""}` : `data directory ${config.dataDir}`;
  return config.redisUrl ? `${state}, counters in Redis at ${config.redisUrl.host}` : state;
}

/** A Redis that is still starting when foodapi starts is waited for this long in all, as PostgreSQL is. */
const REDIS_RETRY_DELAYS_MS = [250, 500, 1000, 2000];

async function withRedisRetried(state: StateStores, url: RedisUrl): Promise<StateStores> {
  const { withRedis } = await import("./redis-state");
  for (let attempt = 0; ; attempt++) {
    try {
      return await withRedis(state, url);
    } catch (error) {
      const fault = storageFault(error);
      if (!fault) throw error;
      const delay = REDIS_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) {
        // The host and port only: the URL may carry a password.
        throw new StateStoreUnusable(`cannot use the Redis at ${url.host} (--redis-url, FOODAPI_REDIS_URL): ${fault.message} (${fault.code})`);
      }
      await Bun.sleep(delay);
    }
  }
}

/**
 * An error met while first writing the state (the generated trial secret) as the one line an operator
 * reads: about the data directory for SQLite, about the URL's store otherwise.
 */
export function stateUnusable(config: Pick<Config, "dataDir" | "stateUrl">, error: unknown): Error {
  if (!config.stateUrl) return dataDirUnusable(config.dataDir, error);
  const fault = storageFault(error);
  if (!fault) return error instanceof Error ? error : new Error(String(error));
  return new StateStoreUnusable(`cannot use the state store at ${config.stateUrl.host} (--state-url, FOODAPI_STATE_URL): ${fault.message} (${fault.code})`);
}
