import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { STATE_MIGRATIONS } from "./state-migrations";

/**
 * The state database (accounts, sessions, key hashes, counters, secrets) in the data directory. Opened in
 * one place that sets WAL, a busy timeout for concurrent writers and foreign keys, and migrates.
 */
export type StateDb = ReturnType<typeof openStateDb>;

export function openStateDb(dataDir: string) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const sqlite = new Database(join(dataDir, "state.sqlite"), { create: true, strict: true });
  // First of all: switching to WAL takes an exclusive lock, and without a timeout a process that finds
  // another one holding it fails at once with "database is locked" instead of waiting its turn.
  sqlite.run("PRAGMA busy_timeout = 5000");
  sqlite.run("PRAGMA journal_mode = WAL");
  // NORMAL in WAL mode: a commit is in the log before it is acknowledged, so a killed process loses
  // nothing; only an OS crash or power cut can roll back the latest commits.
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  migrate(sqlite);
  return { sqlite, db: drizzle(sqlite), dataDir };
}

function migrate(sqlite: Database): void {
  const schemaVersion = () => sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version;
  // One migration per IMMEDIATE transaction, the version re-read inside it: processes starting together
  // on one data directory take turns instead of applying the same step twice.
  const step = sqlite.transaction((): boolean => {
    const version = schemaVersion();
    if (version > STATE_MIGRATIONS.length) {
      throw new Error(`state database is at schema version ${version}, newer than this binary knows (${STATE_MIGRATIONS.length})`);
    }
    if (version === STATE_MIGRATIONS.length) return false;
    sqlite.run(STATE_MIGRATIONS[version]!);
    sqlite.run(`PRAGMA user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate()) {
    // each pass applies the next migration
  }
}
