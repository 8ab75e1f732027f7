import { createSqliteKeyRevocations } from "../../keys/sqlite-revocations";
import { madeOnFirstUse } from "../../platform/first-use";
import type { VersionedSchema } from "../../platform/storage/schema-history";
import { openStateDb, type StateDb } from "../../platform/storage/state-db";
import { dataDirUnusable } from "../../platform/storage/storage-fault";
import { sqliteSchemaVersion } from "./state-migrations" with { type: "macro" };
import type { StateStores } from "./state-stores";

/** This binary's SQLite state schema: its version, and the migrations (state-schema.ts) loaded only to migrate. */
const SQLITE_STATE_SCHEMA: VersionedSchema = {
  latest: sqliteSchemaVersion(),
  history: () => (require("./state-schema") as typeof import("./state-schema")).SQLITE_SCHEMA,
};

/** The state database in `dataDir`, opened and migrated to this binary's schema (state-db.ts, state-schema.ts). */
export const openSqliteStateDb = (dataDir: string, log?: (line: string) => void): StateDb => openStateDb(dataDir, SQLITE_STATE_SCHEMA, log);

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

type StoreMakers = typeof import("./sqlite-stores").SQLITE_STORE_MAKERS;
const storeMakers = (): StoreMakers => (require("./sqlite-stores") as typeof import("./sqlite-stores")).SQLITE_STORE_MAKERS;

/** The stores over an open state database (tests reach the database itself too). */
export function sqliteStores(state: StateDb): StateStores {
  const { sqlite } = state;
  const ping = sqlite.query("SELECT 1");
  // The one row rewritten to learn whether the database takes writes (platform/storage/tables.ts).
  const probe = sqlite.query<unknown, [number]>(
    "INSERT INTO storage_probe (id, written_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at",
  );
  // The stores are made at their first use, with the drizzle tables and queries they build; their module,
  // and drizzle with it, is loaded then too: a start loads and builds none of them (design §18;
  // docs/performance.md, "The later start"). The revocation reader, made now, is plain SQL.
  const made = <K extends keyof StoreMakers>(name: K) => madeOnFirstUse(() => storeMakers()[name](state) as ReturnType<StoreMakers[K]>);
  return {
    accounts: made("accounts"),
    sessions: made("sessions"),
    keys: made("keys"),
    keyRevocations: createSqliteKeyRevocations(state),
    limits: made("limits"),
    trial: made("trial"),
    usage: made("usage"),
    ping: () => void ping.get(),
    probeWrite: () => void probe.run(Date.now()),
    close: () => sqlite.close(),
  };
}
