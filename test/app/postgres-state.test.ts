import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { LEGACY_POSTGRES_MIGRATIONS } from "../../src/app/state/legacy-postgres-migrations";
import { POSTGRES_SCHEMA } from "../../src/app/state/state-schema";
import { postgresShape } from "../../src/platform/storage/postgres-shape";
import { latestVersion } from "../../src/platform/storage/schema-history";
import { openPostgresState, STORE_CALL_DEADLINE_MS } from "../../src/app/state/postgres-state";
import type { StateStores } from "../../src/app/state/state-stores";
import type { MaybePromise } from "../../src/platform/maybe-promise";
import { StateStoreUnusable, storageFault } from "../../src/platform/storage/storage-fault";
import { parsePostgresUrl } from "../../src/platform/config/config";
import { type ContractBackend, runStoreContracts } from "../contracts";
import { declaredPostgresShape, versionsOfNewDatabase } from "../helpers/declared-schema";
import { session, SIGNED_IN, T0, user } from "../contracts/fixtures";
import { postgresMissing, type StoreServer, startPostgres } from "../helpers/store-servers";
import { startTcpProxy } from "../helpers/tcp-proxy";
import { createTestApp } from "../helpers/test-app";
import { pollUntil, within } from "../helpers/wait";

/**
 * The PostgreSQL backend (app/state/postgres-state.ts) against a throwaway server: every store contract, the
 * migrations, and outages (stopped, dropped mid-call, silent).
 */
const missing = postgresMissing();
/** A URL as the config loader hands it over (a URL it refuses: test/platform/config.test.ts). */
const pg = (url: string) => parsePostgresUrl(url, "--state-url");

if (missing) {
  test.skip(`PostgreSQL backend: ${missing}`, () => {});
} else {
  let server: Promise<StoreServer> | undefined;
  const shared = () => (server ??= startPostgres());
  let admin: SQL | undefined;
  /** A client on the server's own `postgres` database, for creating and dropping databases. */
  const adminClient = async () => (admin ??= new SQL(databaseUrl((await shared()).url, "postgres"), { max: 1 }));

  let databases = 0;
  /** A new database on the shared server, empty or a copy of `template`; its URL. */
  async function createDatabase(template?: string): Promise<string> {
    const name = `foodapi_${++databases}`;
    await (await adminClient()).unsafe(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
    return databaseUrl((await shared()).url, name);
  }
  const dropDatabase = async (url: string) => (await adminClient()).unsafe(`DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`);

  /** Migrated once; each state of the contract suites is a copy, which costs a file copy, not the DDL. */
  let template: Promise<string> | undefined;
  const migratedTemplate = () =>
    (template ??= (async () => {
      const url = await createDatabase();
      await (await openPostgresState(pg(url))).close();
      return new URL(url).pathname.slice(1);
    })());

  /**
   * One database per state. Another process's view is another pool on it; handles that run at the same
   * time are pools too (two connections each), since separate connections run in parallel on the server.
   */
  const postgres: ContractBackend = {
    name: "PostgreSQL",
    revocationSignal: "none",
    async open() {
      const url = await createDatabase(await migratedTemplate());
      // Two connections a pool: every backend process the server starts costs the 2 shared cores time.
      const stores = await openPostgresState(pg(url), undefined, { poolSize: 2 });
      const handles: StateStores[] = [];
      const another = async () => {
        const handle = await openPostgresState(pg(url), undefined, { poolSize: 2 });
        handles.push(handle);
        return handle;
      };
      return {
        stores,
        peer: another,
        parallel: (n) => Promise.all(Array.from({ length: n }, another)),
        async close() {
          // Closing a closed pool resolves at once: a check may have closed a peer itself.
          await Promise.all([...handles, stores].map((handle) => handle.close()));
          await dropDatabase(url);
        },
      };
    },
    async dispose() {
      await admin?.close();
      await (await server)?.stop();
    },
  };

  runStoreContracts(postgres);

  describe("the PostgreSQL state", () => {
    test("migrations produce exactly the tables, columns, keys and indexes the declared tables describe", async () => {
      const url = await createDatabase();
      const stores = await openPostgresState(pg(url));
      const client = new SQL(url, { max: 1 });
      try {
        expect((await postgresShape(client, ["foodapi_schema"])).lines).toEqual(declaredPostgresShape());
        expect(await client`SELECT version FROM foodapi_schema ORDER BY version`).toEqual(versionsOfNewDatabase(POSTGRES_SCHEMA));
      } finally {
        await client.close();
        await stores.close();
        await dropDatabase(url);
      }
    });

    test("two instances starting at the same moment on an empty database both come up; the schema is applied once", async () => {
      const url = await createDatabase();
      const lines: string[] = [];
      const both = await Promise.all([openPostgresState(pg(url), (line) => lines.push(line)), openPostgresState(pg(url), (line) => lines.push(line))]);
      const client = new SQL(url, { max: 1 });
      try {
        // Each migration is recorded once (its version is the primary key: a second application would fail).
        expect(await client`SELECT version FROM foodapi_schema ORDER BY version`).toEqual(versionsOfNewDatabase(POSTGRES_SCHEMA));
        // Both work on the one schema.
        const account = user();
        expect(await both[0].accounts.insert(account)).toEqual(account);
        expect(await both[1].accounts.findByEmail(account.email)).toEqual(account);
        // A new database is no news; a restart applies nothing and says nothing.
        await (await openPostgresState(pg(url), (line) => lines.push(line))).close();
        expect(lines).toEqual([]);
      } finally {
        await client.close();
        await Promise.all(both.map((stores) => stores.close()));
        await dropDatabase(url);
      }
    });

    test("a schema newer than this foodapi knows: one line naming the database, no stack", async () => {
      const url = await createDatabase(await migratedTemplate());
      const client = new SQL(url, { max: 1 });
      try {
        await client`INSERT INTO foodapi_schema (version) VALUES (${latestVersion(POSTGRES_SCHEMA) + 1})`;
        const error = await openPostgresState(pg(url)).catch((e) => e);
        expect(error).toBeInstanceOf(StateStoreUnusable);
        expect(error.message).toContain(`is at schema version ${latestVersion(POSTGRES_SCHEMA) + 1}, newer than this foodapi knows`);
        expect(error.message).toContain(new URL(url).pathname);
      } finally {
        await client.close();
        await dropDatabase(url);
      }
    });

    /** A database as the last release of the hand-written history left it (schema 3), with a row in every table. */
    async function legacyDatabase(): Promise<string> {
      const url = await createDatabase();
      const client = new SQL(url, { max: 1 });
      try {
        await client.unsafe("CREATE TABLE foodapi_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
        for (const [version, migration] of LEGACY_POSTGRES_MIGRATIONS.entries()) {
          await client.unsafe(migration).simple();
          await client.unsafe(`INSERT INTO foodapi_schema (version) VALUES (${version + 1})`);
        }
        await client.unsafe(`
          INSERT INTO users VALUES ('u1', 'a@example.com', 'A', true, NULL, 'hash', 1, 2, NULL), ('u2', 'b@example.com', 'B', false, 'img', NULL, 3, 4, 5);
          INSERT INTO sessions VALUES ('s1', 'th', 'u1', 10, true, 1, 2, '127.0.0.1', 'agent');
          INSERT INTO api_keys (id, user_id, name, key_prefix, key_hash, tier, created_at, last_used_at, revoked_at)
            VALUES ('k1', 'u1', 'kept', 'fnk_a', 'kh1', 'free', 1, 5, NULL), ('k2', 'u1', 'same ms', 'fnk_b', 'kh2', 'free', 1, NULL, NULL);
          INSERT INTO key_usage VALUES ('k1', 100, 7, 1);
          INSERT INTO rate_counters VALUES ('key:k1', 42, 3, 99);
          INSERT INTO secrets VALUES ('trial', 's3cret');
          INSERT INTO used_challenges VALUES ('c1', 50);
          INSERT INTO trial_usage VALUES ('j1', 7, 60);
          INSERT INTO storage_probe VALUES (1, 70);
        `).simple();
      } finally {
        await client.close();
      }
      return url;
    }

    const STATE_TABLES = ["users", "sessions", "api_keys", "key_usage", "rate_counters", "secrets", "used_challenges", "trial_usage", "storage_probe"];
    const allRows = async (client: SQL) =>
      Object.fromEntries(await Promise.all(STATE_TABLES.map(async (table) => [table, [...(await client.unsafe(`SELECT * FROM ${table} ORDER BY 1, 2`))]])));

    test("a database made by the hand-written history (schema 3) is adopted: every row kept, then a new database's schema, constraint names included", async () => {
      const url = await legacyDatabase();
      const freshUrl = await createDatabase(await migratedTemplate());
      const client = new SQL(url, { max: 1 });
      const freshClient = new SQL(freshUrl, { max: 1 });
      const lines: string[] = [];
      try {
        const rows = await allRows(client);
        const stores = await openPostgresState(pg(url), (line) => lines.push(line));
        expect(lines).toEqual([`state database ${pg(url).display}: migrated from schema ${LEGACY_POSTGRES_MIGRATIONS.length} to ${latestVersion(POSTGRES_SCHEMA)}`]);
        expect(await allRows(client)).toEqual(rows);
        const adopted = await postgresShape(client, ["foodapi_schema"]);
        expect(adopted.lines).toEqual(declaredPostgresShape());
        expect([...adopted.constraints].sort()).toEqual([...(await postgresShape(freshClient, ["foodapi_schema"])).constraints].sort());
        // The keys' insertion order is kept: of two issued in the same millisecond, the later lists first.
        expect((await stores.keys.listActive("u1")).map((key) => key.id)).toEqual(["k2", "k1"]);
        await stores.close();
        // A restart migrates nothing more.
        await (await openPostgresState(pg(url), (line) => lines.push(line))).close();
        expect(lines).toHaveLength(1);
      } finally {
        await client.close();
        await freshClient.close();
        await dropDatabase(url);
        await dropDatabase(freshUrl);
      }
    });

    test("a database at schema 3 whose tables are not schema 3's is refused, naming the difference, and left as it was", async () => {
      const url = await legacyDatabase();
      const client = new SQL(url, { max: 1 });
      try {
        await client.unsafe("ALTER TABLE users ADD COLUMN nickname text; DROP INDEX sessions_user_idx").simple();
        const error = await openPostgresState(pg(url)).catch((e) => e);
        expect(error).toBeInstanceOf(StateStoreUnusable);
        expect(error.message).toContain(`is at schema version ${LEGACY_POSTGRES_MIGRATIONS.length} but its tables are not that version's`);
        expect(error.message).toContain("missing index sessions_user_idx on sessions (user_id)");
        expect(error.message).toContain("unexpected column users.nickname text");
        expect(await client`SELECT max(version)::integer AS version FROM foodapi_schema`).toEqual([{ version: LEGACY_POSTGRES_MIGRATIONS.length }]);
      } finally {
        await client.close();
        await dropDatabase(url);
      }
    });

    test("the URL's database is the one used, even where PGDATABASE names another", async () => {
      const url = await createDatabase(await migratedTemplate());
      const before = process.env.PGDATABASE;
      process.env.PGDATABASE = "postgres";
      let stores: StateStores | undefined;
      try {
        stores = await openPostgresState(pg(url));
        const account = user();
        await stores.accounts.insert(account);
        const client = new SQL(url, { database: new URL(url).pathname.slice(1), max: 1 });
        expect(await client`SELECT email FROM users`).toEqual([{ email: account.email }]);
        await client.close();
      } finally {
        if (before === undefined) delete process.env.PGDATABASE;
        else process.env.PGDATABASE = before;
        await stores?.close();
        await dropDatabase(url);
      }
    });

    test("a server that is not there: one line after the retries, naming the URL without its password", async () => {
      const port = (await shared()).port;
      const started = performance.now();
      const error = await openPostgresState(pg(`postgresql://foodapi:secret-password@127.0.0.1:1/foodapi`)).catch((e) => e);
      expect(error).toBeInstanceOf(StateStoreUnusable);
      expect(error.message).toMatch(/^cannot use the state database postgresql:\/\/foodapi@127\.0\.0\.1:1\/foodapi after 5 attempts: .*ERR_POSTGRES_CONNECTION_REFUSED/);
      expect(error.message).toContain("--state-url");
      expect(error.message).not.toContain("secret-password");
      // The retries wait 3.75 s in all for a server that is starting.
      expect(performance.now() - started).toBeGreaterThan(3500);
      // A database that does not exist will not appear by waiting: at once.
      const noDatabase = await openPostgresState(pg(`postgres://postgres@127.0.0.1:${port}/no_such_database`)).catch((e) => e);
      expect(noDatabase).toBeInstanceOf(StateStoreUnusable);
      expect(noDatabase.message).toContain("(3D000)");
      expect(noDatabase.message).not.toContain("attempts");
    });
  });

  /**
   * Deletions of an account's sessions against a sign-in's trimming at the session cap (SessionStore.insert),
   * forced into the order that deadlocks: the sign-in (here its statements, on a connection of the test's)
   * holds the account's row and has deleted one session when the store call starts, and deletes the
   * other, which the call would have locked first, once the call is waiting. PostgreSQL would abort one of
   * them with 40P01 after its deadlock_timeout (1 s); the store calls must neither deadlock nor wait on it.
   */
  describe("session deletions racing a sign-in's trimming", () => {
    async function againstTrimming(call: (stores: StateStores, account: { id: string }) => MaybePromise<number>, expiresAt: number) {
      const url = await createDatabase(await migratedTemplate());
      const stores = await openPostgresState(pg(url), undefined, { poolSize: 2 });
      const client = new SQL(url, { max: 2 });
      try {
        const account = user();
        await stores.accounts.insert(account);
        // Stored in this order, so that a scan of the account's (or the expired) sessions meets `first` first.
        const [first, second] = [session(account.id, { expiresAt }), session(account.id, { expiresAt })];
        for (const s of [first, second]) await stores.sessions.insert(s, SIGNED_IN);
        const signIn = await client.reserve();
        try {
          await signIn`BEGIN`;
          await signIn`SELECT id FROM users WHERE id = ${account.id} FOR NO KEY UPDATE`;
          await signIn`DELETE FROM sessions WHERE id = ${second.id}`;
          const called = Promise.resolve(call(stores, account));
          called.catch(() => {});
          // Until the call has answered (it need not wait) or waits on a lock.
          await pollUntil(
            async () => {
              const settled = await Promise.race([called.then(() => true, () => true), Bun.sleep(10).then(() => false)]);
              const [{ n }] = await client`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
              return settled || n > 0 ? true : undefined;
            },
            { ms: 1000, what: "the store call waiting on a lock or answered" },
          );
          await signIn`DELETE FROM sessions WHERE id = ${first.id}`;
          await signIn`COMMIT`;
          const deleted = await within(called, STORE_CALL_DEADLINE_MS, "the store call");
          expect(await stores.sessions.listOfUser(account.id)).toEqual([]);
          return deleted;
        } finally {
          signIn.release();
        }
      } finally {
        await client.close();
        await stores.close();
        await dropDatabase(url);
      }
    }

    test("deleteOthersOfUser (revoke-other-sessions, users disable) waits for the account's row, then deletes what is left", async () => {
      expect(await againstTrimming((stores, account) => stores.sessions.deleteOthersOfUser(account.id, ""), T0 + 3600_000)).toBe(0);
    });

    test("sweepExpired waits on no session a sign-in holds: it sweeps the others and leaves that one to the sign-in", async () => {
      expect(await againstTrimming((stores) => stores.sessions.sweepExpired(T0, 100), T0 - 1000)).toBe(1);
    });
  });

  /** On a server of their own: they stop it. */
  describe("PostgreSQL outages", () => {
    let own: StoreServer;
    let stores: StateStores;
    beforeAll(async () => {
      own = await startPostgres();
      stores = await openPostgresState(pg(own.url));
    });
    afterAll(async () => {
      await stores?.close();
      await own?.stop();
    });

    /** `call`'s rejection, and how long it took. */
    async function rejection(call: () => unknown): Promise<{ error: unknown; ms: number }> {
      const started = performance.now();
      const error = await Promise.resolve()
        .then(call)
        .then(
        () => new Error("resolved"),
        (e) => e,
      );
      return { error, ms: performance.now() - started };
    }

    test("server stopped: reads and writes reject at once as storage faults; started again, they succeed without reopening", async () => {
      const account = user();
      await stores.accounts.insert(account);
      await own.stop();
      try {
        for (const call of [
          () => stores.accounts.findByEmail(account.email),
          () => stores.limits.grant("bucket", 10, 1000, 5, 1000, 1),
          () => stores.trial.consumeTrialRequest("jti", 30, Date.now() + 60_000),
          () => stores.ping(),
          () => stores.probeWrite(),
        ]) {
          const { error, ms } = await rejection(call);
          // Refused, as a rule; a pooled connection whose close was not read yet reports that instead.
          expect(storageFault(error)?.code).toBeOneOf(["ERR_POSTGRES_CONNECTION_REFUSED", "ERR_POSTGRES_CONNECTION_CLOSED", "57P01"]);
          expect(ms).toBeLessThan(STORE_CALL_DEADLINE_MS);
        }
      } finally {
        await own.start();
      }
      expect(await stores.accounts.findByEmail(account.email)).toEqual(account);
      expect(await stores.limits.grant("bucket", 10, 1000, 5, 1000, 1)).toMatchObject({ granted: 1 });
    });

    test("a call waiting on the server when it stops rejects as a storage fault, and nothing of it is kept", async () => {
      // Another session holds the bucket's grant lock, so the grant is inside its transaction, waiting. Each
      // step waits for the one before to be seen on the server, not for a guessed time: with a sleep, a
      // holder slow to connect (a backend to fork on a busy machine) let the grant take the lock first,
      // commit, and resolve.
      const holder = new SQL(own.url, { max: 1 });
      const observer = new SQL(own.url, { max: 1 });
      const held = Promise.withResolvers<void>();
      const locked = holder.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${0x7261_7465}, hashtext(${"held"}))`;
        held.resolve();
        await Bun.sleep(5000);
      });
      locked.catch(held.reject);
      await within(held.promise, 5000, "the holder's lock");
      const waiting = rejection(() => stores.limits.grant("held", 10, 1000, 5, 1000, 3, { slot: 999, n: 1 }));
      await pollUntil(
        async () => ((await observer`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).length > 0 ? true : undefined),
        { ms: 1000, intervalMs: 5, what: "the grant waiting on the holder's lock" },
      );
      await observer.close();
      await own.stop();
      try {
        const { error, ms } = await waiting;
        // Ended by the stop: not a lock wait that ran out (57014), nor the deadline.
        // What arrived, when it is not a storage fault, in the failure itself (it failed so once in CI,
        // unexplained and not reproduced since: "Error: resolved" would say the grant was not stopped).
        expect(storageFault(error)?.code ?? `not a storage fault: ${String(error)}`).toBeOneOf(["57P01", "ERR_POSTGRES_CONNECTION_CLOSED"]);
        expect(ms).toBeLessThan(STORE_CALL_DEADLINE_MS);
      } finally {
        await own.start();
        await holder.close({ timeout: 0 });
        await observer.close({ timeout: 0 });
      }
      // Nothing of the grant was committed: the window is empty.
      expect(await stores.limits.grant("held", 10, 1000, 5, 1000, 1)).toEqual({ granted: 1, used: 1, oldestSlot: 1000 });
    });

    test("a server that goes silent (no answer, no close): every call rejects within the deadline, and recovers once it answers", async () => {
      const proxy = await startTcpProxy(own.port);
      const url = own.url.replace(`:${own.port}/`, `:${proxy.port}/`);
      const behind = await openPostgresState(pg(url));
      try {
        const account = user();
        await behind.accounts.insert(account);
        proxy.silence();
        const calls = await Promise.all([
          rejection(() => behind.accounts.findByEmail(account.email)),
          rejection(() => behind.limits.grant("silent", 10, 1000, 5, 1000, 1)),
          rejection(() => behind.probeWrite()),
        ]);
        for (const { error, ms } of calls) {
          expect(storageFault(error)).toMatchObject({ code: "ETIMEDOUT" });
          expect(ms).toBeGreaterThanOrEqual(STORE_CALL_DEADLINE_MS - 50);
          // Timers fire late, never early, on a busy machine.
          expect(ms).toBeLessThan(STORE_CALL_DEADLINE_MS + 1000);
        }
        proxy.speak();
        expect(await behind.accounts.findByEmail(account.email)).toEqual(account);
      } finally {
        proxy.speak();
        await behind.close();
        proxy.stop();
      }
    });

    test("through the app: 503 SERVICE_UNAVAILABLE with Retry-After and /healthz 503 while it is down, 200 once it is back", async () => {
      const t = await createTestApp({ stores: () => stores });
      try {
        // Issued, never used: its first request must ask the store (nothing cached).
        const { key } = await t.issueKey("outage@example.com");
        await own.stop();
        try {
          const refused = await t.request("/v1/foods?q=egg", { headers: { "x-api-key": key } });
          expect(refused.status).toBe(503);
          expect(refused.headers.get("retry-after")).toBeTruthy();
          expect(((await refused.json()) as { code: string }).code).toBe("SERVICE_UNAVAILABLE");
          expect((await t.request("/healthz")).status).toBe(503);
        } finally {
          await own.start();
        }
        // The health probe writes at most once a second.
        const until = Date.now() + 5000;
        let health = 503;
        while (health !== 200 && Date.now() < until) {
          await Bun.sleep(100);
          health = (await t.request("/healthz")).status;
        }
        expect(health).toBe(200);
        expect((await t.request("/v1/foods?q=egg", { headers: { "x-api-key": key } })).status).toBe(200);
      } finally {
        await t.close();
      }
    });
  });
}

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}
