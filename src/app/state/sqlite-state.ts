import { eq, inArray } from "drizzle-orm";
import { createSqliteAccountStore } from "../../accounts/sqlite-account-store";
import type { DeleteOwned } from "../../accounts/store";
import { apiKeys as apiKeysTable, keyRevocations as keyRevocationsTable } from "../../keys/tables";
import { ALL_KEYS } from "../../keys/store";
import { keyUsage as keyUsageTable } from "../../usage/tables";
import { createSqliteSessionStore } from "../../accounts/sqlite-session-store";
import { createSqliteKeyRevocations, createSqliteKeyStore } from "../../keys/sqlite-store";
import { createSqliteLimitStore } from "../../limits/sqlite-store";
import { createSqliteTrialStore } from "../../trial/sqlite-store";
import { createSqliteUsageStore } from "../../usage/sqlite-store";
import { madeOnFirstUse } from "../../platform/first-use";
import { openStateDb, type StateDb } from "../../platform/storage/state-db";
import { dataDirUnusable } from "../../platform/storage/storage-fault";
import { SQLITE_SCHEMA } from "./state-schema";
import type { StateStores } from "./state-stores";

/**
 * An account's keys, their usage and revocation entries, deleted in the account's deletion transaction
 * (accounts/sqlite-account-store.ts): here, where keys and usage are both known.
 */
const deleteAccountKeys: DeleteOwned<StateDb["db"]> = (db, userId, now) => {
  const apiKeys = apiKeysTable.sqlite;
  const keyRevocations = keyRevocationsTable.sqlite;
  const keyUsage = keyUsageTable.sqlite;
  const keys = db.select({ id: apiKeys.id, keyHash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.userId, userId)).all();
  const ids = keys.map((key) => key.id);
  if (ids.length > 0) {
    db.delete(keyUsage).where(inArray(keyUsage.keyId, ids)).run();
    db.delete(apiKeys).where(inArray(apiKeys.id, ids)).run();
    // The other processes must drop these keys from their caches now, but the revocation log would keep
    // their hashes for an hour: their entries go (earlier revokes') and the log gets a mark that names no
    // key and makes every process drop all it has cached (keys/sqlite-store.ts), which an account
    // deletion, being rare, can afford. A process that had not read the removed entries yet meets the
    // mark after them, so it misses nothing.
    db.delete(keyRevocations).where(inArray(keyRevocations.keyHash, keys.map((key) => key.keyHash))).run();
    db.insert(keyRevocations).values({ keyHash: ALL_KEYS, revokedAt: now }).run();
  }
  return keys;
};

/** The state database in `dataDir`, opened and migrated to this binary's schema (state-db.ts, state-schema.ts). */
export const openSqliteStateDb = (dataDir: string, log?: (line: string) => void): StateDb => openStateDb(dataDir, SQLITE_SCHEMA, log);

/** The stores over the SQLite state database in `dataDir`. */
export function openSqliteState(dataDir: string, log?: (line: string) => void): StateStores {
  const state = openSqliteStateDb(dataDir, log);
  try {
    return sqliteStores(state);
  } catch (error) {
    // keys.epoch beside the database could not be made: the same one line as an unusable directory.
    state.sqlite.close();
    throw dataDirUnusable(dataDir, error);
  }
}

/** The stores over an open state database (tests reach the database itself too). */
export function sqliteStores(state: StateDb): StateStores {
  const { sqlite } = state;
  const ping = sqlite.query("SELECT 1");
  // The one row rewritten to learn whether the database takes writes (platform/storage/tables.ts).
  const probe = sqlite.query<unknown, [number]>(
    "INSERT INTO storage_probe (id, written_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at",
  );
  // The stores the first answers do not read are made at their first use, with the drizzle tables and
  // queries they build: a start builds none of them (docs/performance.md, "The later start").
  return {
    accounts: madeOnFirstUse(() => createSqliteAccountStore(state, deleteAccountKeys)),
    sessions: madeOnFirstUse(() => createSqliteSessionStore(state)),
    keys: madeOnFirstUse(() => createSqliteKeyStore(state)),
    keyRevocations: createSqliteKeyRevocations(state),
    limits: madeOnFirstUse(() => createSqliteLimitStore(state)),
    trial: createSqliteTrialStore(state),
    usage: madeOnFirstUse(() => createSqliteUsageStore(state)),
    ping: () => void ping.get(),
    probeWrite: () => void probe.run(Date.now()),
    close: () => sqlite.close(),
  };
}
