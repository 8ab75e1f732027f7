import type { SQL } from "bun";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { BunSQLSession } from "drizzle-orm/bun-sql/session";
import { PgDatabase, PgDialect } from "drizzle-orm/pg-core";
import { eq } from "drizzle-orm";
import { createPostgresAccountStore, createPostgresSessionStore, type PostgresTx } from "../../accounts/postgres-stores";
import type { DeletedAccount, DeleteOwned } from "../../accounts/store";
import { apiKeys as apiKeysTable } from "../../keys/tables";
import { createPostgresKeyRevocations, createPostgresKeyStore } from "../../keys/postgres-store";
import { createPostgresLimitStore } from "../../limits/postgres-store";
import { isPromise } from "../../platform/maybe-promise";
import { createPostgresTrialStore } from "../../trial/postgres-store";
import { createPostgresUsageStore } from "../../usage/postgres-store";
import type { PostgresUrl } from "../../platform/config/config";
import { migratePostgres } from "../../platform/storage/postgres-migrations";
import { POSTGRES_SCHEMA } from "./state-schema";
import type { StateStores } from "./state-stores";
import { StateStoreUnusable, type StorageFault, StorageTimeout, storageFault } from "../../platform/storage/storage-fault";

const apiKeys = apiKeysTable.postgres;

/**
 * The state in PostgreSQL (15 or later), for any number of instances sharing one database.
 *
 * No call hangs: every store call settles within STORE_CALL_DEADLINE_MS (2 s), whatever the server does.
 * A server that is down or drops the connection fails a call at once (Bun's client reports the refused or
 * closed connection); one that stops answering without closing it is cut off by the deadline here; the
 * server itself cancels a statement after STATEMENT_TIMEOUT_MS (lock waits included), so a slow statement
 * gives its locks back before the caller has given up on it. Each of these is a storage fault (503 with
 * Retry-After). The pool opens new connections as calls need them, so service returns by itself when the
 * server does.
 */
export const STORE_CALL_DEADLINE_MS = 2000;
const STATEMENT_TIMEOUT_MS = 1500;
const CONNECT_TIMEOUT_S = 2;
/** A client that vanished inside a transaction (killed, cut off) holds its locks no longer than this. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 5000;
/** Connections per instance (per process with `--workers`). */
const POOL_SIZE = 10;

/** A server that is still starting (or restarting) when foodapi starts is waited for this long in all. */
const CONNECT_RETRY_DELAYS_MS = [250, 500, 1000, 2000];

export interface PostgresStateOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

/**
 * Connects (retrying a server that is starting), applies the migrations this binary has under the
 * migration lock, and returns the stores. `log`: where a start that migrated an existing schema says so.
 * `url` was checked by the config loader (parsePostgresUrl); a server that cannot be used is a
 * `StateStoreUnusable`, one line naming the setting.
 */
export async function openPostgresState(url: PostgresUrl, log: (line: string) => void = () => {}, options: PostgresStateOptions = {}): Promise<StateStores> {
  const { display: where, database } = url;
  const client = new Bun.SQL(url.href, {
    // Bun's client lets PGDATABASE outrank the URL's database: the URL the operator gave is the one used.
    ...(database ? { database } : {}),
    max: options.poolSize ?? POOL_SIZE,
    connectionTimeout: CONNECT_TIMEOUT_S,
    connection: {
      application_name: "foodapi",
      statement_timeout: STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
  });
  try {
    await connect(client, where);
    const applied = await migrate(client, where);
    // A new database (from schema 0) is no news; an existing one that moved on is: the release before
    // may no longer run on it.
    if (applied && applied.from > 0) log(`state database ${where}: migrated from schema ${applied.from} to ${applied.to}`);
  } catch (error) {
    await client.close({ timeout: 0 });
    throw error;
  }
  return postgresStores(client);
}

/**
 * An account's keys, deleted in the account's deletion transaction (accounts/postgres-stores.ts): their usage
 * goes with them by the foreign key's cascade.
 */
const deleteAccountKeys: DeleteOwned<PostgresTx, Promise<DeletedAccount["keys"]>> = (tx, userId) =>
  tx.delete(apiKeys).where(eq(apiKeys.userId, userId)).returning({ id: apiKeys.id, keyHash: apiKeys.keyHash });

/**
 * What drizzle-orm/bun-sql's `drizzle({ client })` builds, without loading that module: it imports Bun's SQL
 * client (to open one from a URL) at its top, and the bundle hoists such an import to the program's start,
 * where loading the client costs every start some milliseconds, SQLite ones too. `Bun.SQL` above is read
 * only when PostgreSQL is used.
 */
function drizzleOver(client: SQL): BunSQLDatabase {
  const dialect = new PgDialect();
  return new PgDatabase(dialect, new BunSQLSession(client, dialect, undefined), undefined) as BunSQLDatabase;
}

function postgresStores(client: SQL): StateStores {
  const db = drizzleOver(client);
  return {
    accounts: withDeadline(createPostgresAccountStore(db, deleteAccountKeys)),
    sessions: withDeadline(createPostgresSessionStore(db)),
    keys: withDeadline(createPostgresKeyStore(db)),
    keyRevocations: createPostgresKeyRevocations(),
    limits: withDeadline(createPostgresLimitStore(db)),
    trial: withDeadline(createPostgresTrialStore(db)),
    usage: withDeadline(createPostgresUsageStore(db)),
    ping: () => deadline(client`SELECT 1`.then(() => {})),
    probeWrite: () =>
      deadline(
        client`INSERT INTO storage_probe (id, written_at) VALUES (1, ${Date.now()})
               ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at`.then(() => {}),
      ),
    // Running calls get the deadline's time to finish; then the pool is shut.
    close: () => client.close({ timeout: STORE_CALL_DEADLINE_MS / 1000 }),
  };
}

/** Faults that pass by themselves: the server is starting, restarting, or not reachable yet. */
const transient = (fault: StorageFault) => !fault.code.startsWith("28") && fault.code !== "3D000";

async function connect(client: SQL, where: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client`SELECT 1`;
      return;
    } catch (error) {
      const fault = storageFault(error);
      const delay = CONNECT_RETRY_DELAYS_MS[attempt];
      if (!fault || !transient(fault) || delay === undefined) throw unusable(where, error, attempt + 1);
      await Bun.sleep(delay);
    }
  }
}

function unusable(where: string, error: unknown, attempts: number): StateStoreUnusable {
  const fault = storageFault(error);
  const why = fault ? `${fault.message} (${fault.code})` : error instanceof Error ? error.message : String(error);
  const tries = fault && transient(fault) ? ` after ${attempts} attempts` : "";
  return new StateStoreUnusable(`cannot use the state database ${where}${tries}: ${why} (set --state-url or FOODAPI_STATE_URL)`);
}

/** The migrations the database lacks (platform/storage/postgres-migrations.ts); a failure is one line. */
async function migrate(client: SQL, where: string): Promise<{ from: number; to: number } | null> {
  try {
    return await migratePostgres(client, where, POSTGRES_SCHEMA);
  } catch (error) {
    if (error instanceof StateStoreUnusable) throw error;
    // A fault (the server went away meanwhile) or the server refusing a migration: either way one line.
    throw unusable(where, error, 1);
  }
}

/**
 * The store with every promise-returning method bounded by the deadline. A call cut off may still
 * complete on the server later; each is one transaction or one statement, so it completes whole or not
 * at all, and a grant or a trial count completed after its 503 only counts against the caller (quotas
 * never fail open).
 */
function withDeadline<T extends object>(store: T): T {
  const bounded: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(store)) {
    bounded[name] = typeof member === "function" ? (...args: unknown[]) => deadline(member.apply(store, args)) : member;
  }
  return bounded as T;
}

function deadline<T>(value: T | Promise<T>): T | Promise<T> {
  if (!isPromise(value)) return value;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StorageTimeout("the PostgreSQL state database", STORE_CALL_DEADLINE_MS)), STORE_CALL_DEADLINE_MS);
  });
  // The call's own failure after the deadline has nobody left to hear it.
  value.catch(() => {});
  return Promise.race([value, expired]).finally(() => clearTimeout(timer));
}
