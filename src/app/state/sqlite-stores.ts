import { eq, inArray } from "drizzle-orm";
import { createSqliteAccountStore } from "../../accounts/sqlite-account-store";
import type { DeleteOwned } from "../../accounts/store";
import { apiKeys as apiKeysTable, keyRevocations as keyRevocationsTable } from "../../keys/tables";
import { ALL_KEYS } from "../../keys/store";
import { keyUsage as keyUsageTable } from "../../usage/tables";
import { createSqliteSessionStore } from "../../accounts/sqlite-session-store";
import { createSqliteKeyStore } from "../../keys/sqlite-store";
import { createSqliteLimitStore } from "../../limits/sqlite-store";
import { createSqliteTrialStore } from "../../trial/sqlite-store";
import { createSqliteUsageStore } from "../../usage/sqlite-store";
import type { StateDb } from "../../platform/storage/state-db";
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
    // key and makes every process drop all it has cached (keys/sqlite-revocations.ts), which an account
    // deletion, being rare, can afford. A process that had not read the removed entries yet meets the
    // mark after them, so it misses nothing.
    db.delete(keyRevocations).where(inArray(keyRevocations.keyHash, keys.map((key) => key.keyHash))).run();
    db.insert(keyRevocations).values({ keyHash: ALL_KEYS, revokedAt: now }).run();
  }
  return keys;
};

/**
 * How each SQLite store is made over the state database: the stores built with drizzle, and drizzle with
 * them, which sqlite-state.ts loads when the first of them is used (design §18).
 * @public required, not imported (sqlite-state.ts), which knip does not follow
 */
export const SQLITE_STORE_MAKERS = {
  accounts: (state: StateDb) => createSqliteAccountStore(state, deleteAccountKeys),
  sessions: createSqliteSessionStore,
  keys: createSqliteKeyStore,
  limits: createSqliteLimitStore,
  trial: createSqliteTrialStore,
  usage: createSqliteUsageStore,
} satisfies Partial<Record<keyof StateStores, (state: StateDb) => unknown>>;
