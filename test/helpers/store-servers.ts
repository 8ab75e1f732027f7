import { forgetChild, trackChild } from "./hygiene";
import { type RedisOptions, type StoreServer, startPostgres as startPostgresProcess, startRedis as startRedisProcess } from "./store-processes";

/**
 * Throwaway PostgreSQL and Redis servers for the tests (test/helpers/store-processes.ts), with their files in
 * this run's temporary directory, stopped by the test or killed when the run ends (helpers/hygiene.ts).
 */
export { postgresMissing, redisMissing, type StoreServer } from "./store-processes";

const hooks = { track: trackChild, forget: forgetChild };

/** A fresh PostgreSQL cluster with an empty database `foodapi` (store-processes.ts `startPostgres`). */
export const startPostgres = (): Promise<StoreServer> => startPostgresProcess(hooks);

/** A Redis server, without persistence unless `options.persistent` (store-processes.ts `startRedis`). */
export const startRedis = (options: Pick<RedisOptions, "persistent"> = {}): Promise<StoreServer> => startRedisProcess({ ...options, ...hooks });
