import { Database } from "bun:sqlite";
import { RedisClient, SQL } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openPostgresState } from "../../src/app/state/postgres-state";
import { parsePostgresUrl, parseRedisUrl } from "../../src/platform/config/config";
import { withRedis } from "../../src/app/state/redis-state";
import { openSqliteStateDb, sqliteStores } from "../../src/app/state/sqlite-state";
import type { StateDb } from "../../src/platform/storage/state-db";
import type { StateStores } from "../../src/app/state/state-stores";
import { atRunEnd } from "./hygiene";
import { type StoreServer, startPostgres, startRedis } from "./store-servers";

/**
 * The state backend the in-process tests run on (test/helpers/test-app.ts), chosen by
 * FOODAPI_TEST_BACKEND: `sqlite` (the default: a state database in the app's data directory) or
 * `postgres+redis` (the state in PostgreSQL, the counters and the revocation signal in Redis, as
 * `--state-url` with `--redis-url` has it). `npm test` runs the behaviour suite on both
 * (test/run-second-backend.sh).
 *
 * For `postgres+redis` one throwaway PostgreSQL and one Redis serve the whole test process: started on
 * first use, stopped when the run ends. Each test state is a database of its own (a copy of a migrated
 * template: a file copy, not the DDL) and a Redis key prefix of its own (and so a revocation channel of
 * its own), so tests stay as independent as a fresh data directory makes them.
 */
export type TestBackendName = "sqlite" | "postgres+redis";

const NAMES: readonly TestBackendName[] = ["sqlite", "postgres+redis"];
const chosen = process.env.FOODAPI_TEST_BACKEND || "sqlite";
if (!NAMES.includes(chosen as TestBackendName)) {
  throw new Error(`FOODAPI_TEST_BACKEND=${chosen}: expected one of ${NAMES.join(", ")}`);
}
export const TEST_BACKEND = chosen as TestBackendName;

/** A test's state on the chosen backend, with what the tests need to look at it or to break it. */
export interface TestState {
  readonly backend: TestBackendName;
  /** The backend's stores as the server would open them. */
  readonly stores: StateStores;
  /**
   * The rows of one SQL statement on the state database (SQLite or PostgreSQL), with `?` for its
   * parameters: for what both spell alike (the tables and columns are the same on both).
   */
  rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Rows in one table of the state database. */
  count(table: string): Promise<number>;
  /**
   * Everything the backend holds for this state, as text to search for what must not be there: the SQLite
   * files (database and WAL, as bytes); or every row of every PostgreSQL table and every Redis key of this
   * state's prefix with its value.
   */
  storedText(): Promise<string>;
  /** The same state as another process opens it: its own connections (and revocation subscriber). */
  peer(): Promise<StateStores>;
  /**
   * The state database refuses writes from now on, reads still work, as a read-only file system or a
   * PostgreSQL standby after a failover would: SQLite's `query_only`; PostgreSQL's
   * `default_transaction_read_only`, with the database's connections cut so that the pool's next ones have
   * it. Redis is left as it is (test/app/redis-counters.test.ts covers Redis going away).
   */
  refuseWrites(): Promise<void>;
  /** Writes work again (the next connections; those of the fault are cut). */
  allowWrites(): Promise<void>;
  /** The storage fault code a write meets meanwhile. */
  readonly readOnlyFault: string;
  /**
   * Another process holds the state's write lock until the returned function is called: SQLite's
   * `BEGIN IMMEDIATE`; PostgreSQL's tables locked EXCLUSIVE (reads pass) and Redis's writes paused
   * (`CLIENT PAUSE … WRITE`). A write meanwhile waits (until its store's bound).
   */
  lockWrites(): Promise<() => Promise<void>>;
  /** Closes the stores, peers and connections, and removes the state (the database, for PostgreSQL). */
  close(): Promise<void>;
}

export function openTestState(dataDir: string): Promise<TestState> {
  return TEST_BACKEND === "sqlite" ? Promise.resolve(sqliteState(dataDir)) : postgresRedisState();
}

function sqliteState(dataDir: string): TestState {
  const state = openSqliteStateDb(dataDir);
  const file = join(dataDir, "state.sqlite");
  const peers: StateDb[] = [];
  const rows = async <T>(sql: string, ...params: unknown[]) => state.sqlite.query(sql).all(...(params as never[])) as T[];
  return {
    backend: "sqlite",
    stores: sqliteStores(state),
    rows,
    async count(table) {
      return (await rows<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n;
    },
    async storedText() {
      state.sqlite.run("PRAGMA wal_checkpoint(FULL)");
      const read = (path: string) => {
        try {
          return readFileSync(path).toString("latin1");
        } catch {
          return "";
        }
      };
      return `${read(file)}\n${read(`${file}-wal`)}`;
    },
    async peer() {
      const other = openSqliteStateDb(dataDir);
      peers.push(other);
      return sqliteStores(other);
    },
    async refuseWrites() {
      state.sqlite.run("PRAGMA query_only = ON");
    },
    async allowWrites() {
      state.sqlite.run("PRAGMA query_only = OFF");
    },
    readOnlyFault: "SQLITE_READONLY",
    async lockWrites() {
      const other = new Database(file);
      other.run("BEGIN IMMEDIATE");
      return async () => {
        other.run("ROLLBACK");
        other.close();
      };
    },
    async close() {
      for (const peer of peers) peer.sqlite.close();
      state.sqlite.close();
    },
  };
}

interface Servers {
  postgres: StoreServer;
  redis: StoreServer;
  /** A client on the server's `postgres` database: creates, alters and drops the test databases. */
  admin: SQL;
  /** The migrated database every test database is a copy of. */
  template: string;
}

let servers: Promise<Servers> | undefined;

/** The run's PostgreSQL and Redis, started on first use (in parallel), stopped when the run ends. */
function sharedServers(): Promise<Servers> {
  return (servers ??= (async () => {
    const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    const admin = new SQL(databaseUrl(postgres.url, "postgres"), { max: 1 });
    atRunEnd(async () => {
      await admin.close();
      await Promise.all([postgres.stop(), redis.stop()]);
    });
    const template = "foodapi_template";
    await admin.unsafe(`CREATE DATABASE ${template}`);
    await (await openPostgresState(parsePostgresUrl(databaseUrl(postgres.url, template), "--state-url"))).close();
    return { postgres, redis, admin, template };
  })());
}

let opened = 0;

async function postgresRedisState(): Promise<TestState> {
  const { postgres, redis, admin, template } = await sharedServers();
  const n = ++opened;
  const database = `foodapi_test_${n}`;
  await admin.unsafe(`CREATE DATABASE ${database} TEMPLATE ${template}`);
  const url = databaseUrl(postgres.url, database);
  const prefix = `test:${n}:`;
  // A small pool: every connection is a server process on the shared cores; calls queue for one as
  // they would under load.
  const open = async () => {
    const state = await openPostgresState(parsePostgresUrl(url, "--state-url"), undefined, { poolSize: 4 });
    try {
      return await withRedis(state, parseRedisUrl(redis.url, "--redis-url"), { prefix });
    } catch (error) {
      await state.close();
      throw error;
    }
  };
  const stores = await open();
  const peers: StateStores[] = [];
  let inspector: SQL | undefined;
  let raw: RedisClient | undefined;
  const sql = () => (inspector ??= new SQL(url, { max: 1 }));
  const redisClient = async () => {
    if (!raw) {
      raw = new RedisClient(redis.url);
      await raw.connect();
    }
    return raw;
  };
  const rows = async <T>(text: string, ...params: unknown[]) => {
    let i = 0;
    return [...(await sql().unsafe(text.replace(/\?/g, () => `$${++i}`), params as never[]))] as T[];
  };
  /** The state's tables (the migrations' and their bookkeeping). */
  const tables = async () =>
    (await rows<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).map((t) => t.name);
  /**
   * Changes a setting of the database and cuts every connection that may have read the old one, so that
   * the pools' next connections have the new one. A backend reads the database's settings while it starts,
   * before it shows in `pg_stat_activity`: one that was starting during the change would escape a single
   * sweep and keep the old setting for good (a pool reconnecting just then). So every connection that began
   * before the change is cut, sweeping until three sweeps in a row find none.
   */
  const changeSetting = async (statement: string) => {
    await admin.unsafe(statement);
    // As text: a JavaScript Date would drop the microseconds.
    const [{ changedAt }] = await admin`SELECT CAST(clock_timestamp() AS text) AS "changedAt"`;
    for (let quiet = 0, sweeps = 0; quiet < 3 && sweeps < 250; sweeps++) {
      const [{ cut }] = await admin`
        SELECT CAST(count(pg_terminate_backend(pid, 5000)) AS integer) AS cut FROM pg_stat_activity
         WHERE datname = ${database} AND backend_start <= CAST(${changedAt} AS timestamptz)`;
      quiet = cut === 0 ? quiet + 1 : 0;
      await Bun.sleep(20);
    }
  };

  return {
    backend: "postgres+redis",
    stores,
    rows,
    async count(table) {
      return (await rows<{ n: number }>(`SELECT CAST(count(*) AS integer) AS n FROM ${table}`))[0]!.n;
    },
    async storedText() {
      const parts: string[] = [];
      for (const name of await tables()) {
        for (const row of await rows<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`)) parts.push(row.row);
      }
      const client = await redisClient();
      let cursor = "0";
      do {
        const [next, keys] = (await client.send("SCAN", [cursor, "MATCH", `${prefix}*`, "COUNT", "1000"])) as [string, string[]];
        cursor = next;
        for (const key of keys) {
          const type = (await client.send("TYPE", [key])) as string;
          const value =
            type === "string" ? await client.send("GET", [key])
            : type === "hash" ? await client.send("HGETALL", [key])
            : type === "set" ? await client.send("SMEMBERS", [key])
            : type === "zset" ? await client.send("ZRANGE", [key, "0", "-1", "WITHSCORES"])
            : type === "list" ? await client.send("LRANGE", [key, "0", "-1"])
            : type;
          parts.push(`${key} ${JSON.stringify(value)}`);
        }
      } while (cursor !== "0");
      return parts.join("\n");
    },
    async peer() {
      const other = await open();
      peers.push(other);
      return other;
    },
    refuseWrites: () => changeSetting(`ALTER DATABASE ${database} SET default_transaction_read_only = on`),
    allowWrites: () => changeSetting(`ALTER DATABASE ${database} RESET default_transaction_read_only`),
    readOnlyFault: "25006",
    async lockWrites() {
      const locker = new SQL(url, { max: 1 });
      const connection = await locker.reserve();
      await connection.unsafe("BEGIN");
      await connection.unsafe(`LOCK TABLE ${(await tables()).map((name) => `"${name}"`).join(", ")} IN EXCLUSIVE MODE`);
      const client = await redisClient();
      // Paused for at most a minute, should the test never release it.
      await client.send("CLIENT", ["PAUSE", "60000", "WRITE"]);
      return async () => {
        await client.send("CLIENT", ["UNPAUSE"]);
        await connection.unsafe("ROLLBACK");
        connection.release();
        await locker.close();
      };
    },
    async close() {
      for (const peer of peers) await peer.close();
      await stores.close();
      await inspector?.close();
      // This state's keys go with it: the run's Redis holds only what live tests use.
      const client = await redisClient();
      let cursor = "0";
      do {
        const [next, keys] = (await client.send("SCAN", [cursor, "MATCH", `${prefix}*`, "COUNT", "1000"])) as [string, string[]];
        cursor = next;
        if (keys.length > 0) await client.send("UNLINK", keys);
      } while (cursor !== "0");
      client.close();
      await admin.unsafe(`DROP DATABASE ${database} WITH (FORCE)`);
    },
  };
}

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}
