import { createSqliteAccountStore } from "../../accounts/sqlite-account-store";
import { createSqliteSessionStore } from "../../accounts/sqlite-session-store";
import { createSqliteKeyRevocations, createSqliteKeyStore } from "../../keys/sqlite-store";
import { createSqliteLimitStore } from "../../limits/sqlite-store";
import { createSqliteTrialStore } from "../../trial/sqlite-store";
import { createSqliteUsageStore } from "../../usage/sqlite-store";
import { openStateDb, type StateDb } from "../../platform/storage/state-db";
import { dataDirUnusable } from "../../platform/storage/storage-fault";
import type { StateStores } from "./state-stores";

/** The stores over the SQLite state database in `dataDir` (opened, migrated; see state-db.ts). */
export function openSqliteState(dataDir: string, log?: (line: string) => void): StateStores {
  const state = openStateDb(dataDir, log);
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
  // The one row rewritten to learn whether the database takes writes (platform/storage/schema.ts).
  const probe = sqlite.query<unknown, [number]>(
    "INSERT INTO storage_probe (id, written_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at",
  );
  return {
    accounts: createSqliteAccountStore(state),
    sessions: createSqliteSessionStore(state),
    keys: createSqliteKeyStore(state),
    keyRevocations: createSqliteKeyRevocations(state),
    limits: createSqliteLimitStore(state),
    trial: createSqliteTrialStore(state),
    usage: createSqliteUsageStore(state),
    ping: () => void ping.get(),
    probeWrite: () => void probe.run(Date.now()),
    close: () => sqlite.close(),
  };
}
