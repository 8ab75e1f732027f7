import { Database } from "bun:sqlite";
import { accessSync, chmodSync, closeSync, constants, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { VersionedSchema } from "./schema-history";
import { openDataFile, STATE_FILE_NAME } from "./data-files";
import { DataDirUnusable, dataDirUnusable } from "./storage-fault";

/**
 * The state database (accounts, sessions, key hashes, counters, secrets) in the data directory. Opened in
 * one place that sets the files' permissions, WAL, a busy timeout for concurrent writers and foreign keys,
 * and migrates. A directory it cannot use is a `DataDirUnusable` naming it and why.
 */
export type StateDb = ReturnType<typeof openStateDb>;

/**
 * `schema`: the schema's version and its migrations, which the composition root gathers (app/state/sqlite-state.ts).
 * `log`: where a start that migrated an existing database says so (serve and the CLI: stderr).
 */
export function openStateDb(dataDir: string, schema: VersionedSchema, log: (line: string) => void = () => {}) {
  const file = join(dataDir, STATE_FILE_NAME);
  try {
    prepareFiles(dataDir, log);
    const sqlite = openDatabase(file, schema, log);
    let db: BunSQLiteDatabase | undefined;
    return {
      sqlite,
      /** drizzle over `sqlite`, loaded and made for the first store that queries through it, not at the start. */
      get db() {
        return (db ??= (require("./sqlite-drizzle") as typeof import("./sqlite-drizzle")).drizzle(sqlite));
      },
      dataDir,
    };
  } catch (error) {
    throw dataDirUnusable(dataDir, error);
  }
}

/** The state files hold password hashes, session and key hashes and the trial secret: owner only. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * The directory and `state.sqlite` with owner-only permissions before SQLite opens it: SQLite gives the
 * -wal and -shm files it creates the database file's mode, whatever the umask. Files left by an older
 * version (0644 under a common umask) are tightened. The directory is 0700 whatever the umask and whatever
 * mode it had (design §14): one made 0755 by an operator or a service manager is tightened, and the
 * log says so; one this user cannot tighten (not its owner) stops start-up.
 */
function prepareFiles(dataDir: string, log: (line: string) => void): void {
  if (mkdirSync(dataDir, { recursive: true, mode: DIR_MODE }) !== undefined) chmodSync(dataDir, DIR_MODE);
  const directory = statSync(dataDir);
  if (!directory.isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR", syscall: "stat", path: dataDir });
  // Root passes this whatever the mode, but not on a read-only file system.
  accessSync(dataDir, constants.W_OK | constants.X_OK);
  if ((directory.mode & 0o077) !== 0) {
    const was = (directory.mode & 0o777).toString(8);
    try {
      chmodSync(dataDir, DIR_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
      throw new DataDirUnusable(
        `cannot use data directory ${dataDir}: open to other users (mode ${was}) and cannot be made 700 by the user running foodapi (not its owner); chown it to that user or chmod 700 it (set --data-dir or FOODAPI_DATA_DIR)`,
      );
    }
    log(`data directory ${dataDir} was open to other users (mode ${was}): made it 700 (owner only)`);
  }
  // Made here, not by SQLite, for its mode; and by root in a service's directory, given its owner (data-files.ts).
  closeSync(openDataFile(dataDir, STATE_FILE_NAME, { mode: FILE_MODE, create: true })!);
  // The WAL and SHM files exist only while some process has the database open.
  for (const name of [`${STATE_FILE_NAME}-wal`, `${STATE_FILE_NAME}-shm`]) {
    const fd = openDataFile(dataDir, name, { mode: FILE_MODE, create: false });
    if (fd !== undefined) closeSync(fd);
  }
}

function openDatabase(file: string, schema: VersionedSchema, log: (line: string) => void) {
  const sqlite = new Database(file, { create: true, strict: true });
  try {
    configure(sqlite);
    // At this binary's version (every start but a database's first and an upgrade's): nothing to migrate,
    // and the migrations, their code and the history are not loaded. The version only ever goes up, and
    // migrating re-reads it inside its transaction.
    if (sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version === schema.latest) return sqlite;
    const { migrateSqlite } = require("./sqlite-migrations") as typeof import("./sqlite-migrations");
    const applied = migrateSqlite(sqlite, schema.history());
    // Migrations are forward only: the line tells the operator when a data directory stopped being one
    // the release before can open. A new database (from schema 0) is no such news.
    if (applied && applied.from > 0) log(`state database ${file}: migrated from schema ${applied.from} to ${applied.to}`);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return sqlite;
}

/** How long a statement waits for another process's lock before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

function configure(sqlite: Database): void {
  // First of all: switching to WAL takes an exclusive lock, and without a timeout a process that finds
  // another one holding it fails at once with "database is locked" instead of waiting its turn.
  sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  switchToWal(sqlite);
  // NORMAL in WAL mode: a commit is in the log before it is acknowledged, so a killed process loses
  // nothing; only an OS crash or power cut can roll back the latest commits.
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
}

/**
 * `PRAGMA journal_mode = WAL`, tried again while another process holds the way. A new database is in
 * rollback mode until the first process switches it, and there two processes that have both read it and
 * both want the exclusive lock would wait for each other: SQLite fails one of them at once with
 * SQLITE_BUSY, without the busy timeout (seen: 1 to 81 of 120 processes opening one new directory
 * together, in about one run out of six). Once the other has switched, the retry finds WAL and succeeds.
 */
function switchToWal(sqlite: Database): void {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.run("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
      // Short and spread out, so that the processes that collided do not collide again in step.
      Bun.sleepSync(1 + Math.random() * 20);
    }
  }
}

/** SQLITE_BUSY, whatever its extended code (the low byte of the result code). */
const isBusy = (error: unknown): boolean => ((error as { errno?: number }).errno ?? 0) % 256 === SQLITE_BUSY;
const SQLITE_BUSY = 5;
