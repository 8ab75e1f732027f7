import { postgresMissing, redisMissing, startPostgres, startRedis } from "../../test/helpers/store-processes";
import { tempDir, track } from "./processes";
import type { StoreUrls } from "./servers";

/**
 * The PostgreSQL + Redis mode's own throwaway servers (test/helpers/store-processes.ts): on loopback, their
 * files in the bench's temporary directories, stopped by `stop()` or killed with everything else the bench
 * started when it exits. Skipped, with the reason, where PostgreSQL or Redis is not installed.
 */
export type StoreServers = { urls: StoreUrls; stop(): Promise<void> } | { skipped: string };

export async function startStoreServers(): Promise<StoreServers> {
  const missing = postgresMissing() ?? redisMissing();
  if (missing) return { skipped: missing };
  const hooks = { track, tempDir };
  const [postgres, redis] = await Promise.all([startPostgres(hooks), startRedis(hooks)]);
  return {
    urls: { stateUrl: postgres.url, redisUrl: redis.url },
    async stop() {
      await Promise.all([postgres.stop(), redis.stop()]);
    },
  };
}
