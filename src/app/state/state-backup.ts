import { Database } from "bun:sqlite";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, renameSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { createFileBeside, DirectoryRefused, type FileBeside } from "../../platform/storage/file-beside";
import { STATE_FILE_NAME } from "../../platform/storage/data-files";
import { latestVersion } from "../../platform/storage/schema-history";
import { applySqliteHistory } from "../../platform/storage/sqlite-migrations";
import { SQLITE_SCHEMA } from "./state-schema";

/**
 * `foodapi backup` and `foodapi restore` on the SQLite state database (design §10). A backup is one
 * self-contained SQLite file; a restore checks one and puts it in place, refusing while anything uses the
 * data directory.
 */

/** Why a backup or restore did nothing: one line for the operator (exit code 1). */
export class StateCopyRefused extends Error {}

/** Tables every foodapi state database has had since schema 3: what makes a file one of ours. */
const FOODAPI_TABLES = ["users", "api_keys", "sessions", "secrets"];
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Copies the data directory's state database to `outFile` as of one moment, while servers keep writing:
 * `VACUUM INTO` reads it in one read transaction (WAL: writers go on) and writes a compact copy in rollback
 * mode, `PRAGMA user_version` included. The copy is written into a file made 0600 first (which SQLite
 * keeps) in a private directory beside `outFile` (./file-beside.ts), synced, then renamed over it:
 * `outFile` is either the old file or the whole new one, and nobody else can read or redirect the copy.
 */
export function backupState(dataDir: string, outFile: string): { bytes: number; schemaVersion: number } {
  const source = join(dataDir, STATE_FILE_NAME);
  if (!existsSync(source)) throw new StateCopyRefused(`no state database at ${source} (set --data-dir or FOODAPI_DATA_DIR to the server's data directory)`);
  // Renamed over the live database (or its log), the copy would pull it from under the server.
  if (resolve(outFile) === resolve(source) || resolve(outFile).startsWith(`${resolve(source)}-`)) {
    throw new StateCopyRefused(`--out ${outFile} is the state database itself; write the backup somewhere else`);
  }
  let temporary: FileBeside | undefined;
  let db: Database | undefined;
  try {
    temporary = createFileBeside(outFile, FILE_MODE);
    // Read-write: a WAL database is read through its shared-memory index, which a reader must be able to
    // update; nothing here writes the source.
    db = new Database(source, { readwrite: true, create: false, strict: true });
    db.run("PRAGMA busy_timeout = 5000");
    db.run("VACUUM INTO ?", [temporary.path]);
    db.close();
    db = undefined;
    const schemaVersion = readSchemaVersion(temporary.path);
    temporary.putInPlace();
    return { bytes: statSync(outFile).size, schemaVersion };
  } catch (error) {
    if (error instanceof StateCopyRefused) throw error;
    throw new StateCopyRefused(`cannot back up ${source} to ${outFile}: ${(error as Error).message}`);
  } finally {
    db?.close();
    temporary?.remove();
  }
}

export interface RestoreResult {
  stateFile: string;
  /** Where the state database that was there before now is; null when there was none. */
  replacedStateKeptAt: string | null;
  schemaVersion: number;
}

/**
 * Checks `backupFile`, then puts a copy of it in place as the data directory's state database. Nothing
 * changes unless every check passes: the file is a SQLite database that passes `PRAGMA integrity_check`,
 * has foodapi's tables, a schema version this binary knows (an older one is migrated at the next start),
 * and exactly that version's tables, indexes, triggers and views. The database it replaces is renamed to
 * `state.sqlite.replaced-<time>`, never deleted.
 *
 * "Nothing uses the data directory" is asked of SQLite itself: leaving WAL mode needs the only connection
 * to the database, so it fails with SQLITE_BUSY while any server, worker or command has it open, however
 * idle. Once it succeeds, an exclusive lock is held until the swap is done, so a server starting meanwhile
 * waits instead of reading a database that is being replaced.
 */
export function restoreState(dataDir: string, backupFile: string, now: Date): RestoreResult {
  if (!existsSync(backupFile) || !statSync(backupFile).isFile()) throw new StateCopyRefused(`no backup file at ${backupFile}`);
  const created = mkdirSync(dataDir, { recursive: true, mode: DIR_MODE }) !== undefined;
  if (created) chmodSync(dataDir, DIR_MODE);
  const stateFile = join(dataDir, STATE_FILE_NAME);
  let incoming: FileBeside | undefined;
  let current: Database | undefined;
  try {
    incoming = createFileBeside(stateFile, FILE_MODE, { inParentDirectory: rootInAnotherUsersDirectory(dataDir) });
    copyFileSync(backupFile, incoming.path);
    // The copy takes the backup's mode; the private directory it is in kept it from others meanwhile.
    chmodSync(incoming.path, FILE_MODE);
    giveDirectoryOwner(incoming.path, dataDir);
    const schemaVersion = checkBackup(incoming.path, backupFile);
    current = existsSync(stateFile) ? lockUnused(stateFile, dataDir) : undefined;
    let replacedStateKeptAt: string | null = null;
    if (existsSync(stateFile)) {
      replacedStateKeptAt = `${stateFile}.replaced-${now.toISOString().replace(/[:.]/g, "-")}`;
      renameSync(stateFile, replacedStateKeptAt);
      // Left only by a database SQLite could not open (a damaged one): its log goes with it, so that it
      // can never be applied to the restored database.
      if (existsSync(`${stateFile}-wal`)) renameSync(`${stateFile}-wal`, `${replacedStateKeptAt}-wal`);
      removeQuietly(`${stateFile}-shm`);
    }
    incoming.putInPlace();
    return { stateFile, replacedStateKeptAt, schemaVersion };
  } catch (error) {
    incoming?.remove();
    // A refused restore into a new directory leaves no empty directory behind either.
    if (created) removeEmptyDirectory(dataDir);
    if (error instanceof DirectoryRefused) throw new StateCopyRefused(`cannot restore into ${dataDir}: ${error.message}; nothing was changed`);
    throw error;
  } finally {
    current?.close();
  }
}

/** The schema version of a backup that passes every check; StateCopyRefused naming the first that fails. */
function checkBackup(copy: string, shownAs: string): number {
  let db: Database | undefined;
  try {
    db = new Database(copy, { readwrite: true, create: false, strict: true });
    const problems = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all();
    if (problems.length !== 1 || problems[0]!.integrity_check !== "ok") {
      throw new StateCopyRefused(`${shownAs} is damaged or truncated: SQLite's integrity check says ${problems[0]?.integrity_check ?? "nothing"}; nothing was changed`);
    }
    const tables = new Set(db.query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table'").all().map((row) => row.name));
    const version = db.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version;
    if (version < 1 || FOODAPI_TABLES.some((table) => !tables.has(table))) {
      throw new StateCopyRefused(`${shownAs} is a SQLite database but not a foodapi state database (no ${FOODAPI_TABLES.join(", ")} tables); nothing was changed`);
    }
    if (version > latestVersion(SQLITE_SCHEMA)) {
      throw new StateCopyRefused(
        `${shownAs} is at schema version ${version}, newer than this foodapi knows (${latestVersion(SQLITE_SCHEMA)}); restore it with the foodapi that wrote it, or a newer one; nothing was changed`,
      );
    }
    const differences = schemaDifferences(db, version);
    if (differences.length > 0) {
      const named = differences.length > 3 ? [...differences.slice(0, 3), `${differences.length - 3} more`] : differences;
      throw new StateCopyRefused(
        `${shownAs} does not have the schema of foodapi's state at version ${version} (${named.join(", ")}): it was altered after 'foodapi backup' wrote it; nothing was changed`,
      );
    }
    // One self-contained file: no log of its own beside it once it is in place.
    db.query("PRAGMA journal_mode = DELETE").get();
    return version;
  } catch (error) {
    if (error instanceof StateCopyRefused) throw error;
    // SQLITE_NOTADB, SQLITE_CORRUPT: a truncated or damaged file, or not a database at all.
    throw new StateCopyRefused(`${shownAs} is not a whole SQLite database: damaged, truncated or no database at all (${(error as Error).message}); nothing was changed`);
  } finally {
    db?.close();
  }
}

/** One entry of a database's schema (`sqlite_schema`): a table, index, trigger or view, and its SQL. */
interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/**
 * How the schema of `db` differs from the one foodapi's migrations make at `version`, each difference
 * named ("added trigger t on api_keys", "no index i", "changed table t"); empty when it is the same. A trigger
 * or view slipped into a backup would run inside the restored server (a trigger that clears `revoked_at`
 * keeps a revoked key answering), so anything but the exact schema is refused.
 */
function schemaDifferences(db: Database, version: number): string[] {
  const expected = new Map(canonicalSchema(version).map((entry) => [`${entry.type} ${entry.name}`, entry]));
  const differences: string[] = [];
  for (const entry of readSchema(db)) {
    const key = `${entry.type} ${entry.name}`;
    const want = expected.get(key);
    expected.delete(key);
    if (!want) differences.push(`added ${key}${entry.tbl_name === entry.name ? "" : ` on ${entry.tbl_name}`}`);
    else if (want.tbl_name !== entry.tbl_name || want.sql !== entry.sql) differences.push(`changed ${key}`);
  }
  for (const key of expected.keys()) differences.push(`no ${key}`);
  return differences;
}

/** The schema of a state database at `version`: the migrations up to it, applied to an empty database. */
function canonicalSchema(version: number): SchemaEntry[] {
  const db = new Database(":memory:", { strict: true });
  try {
    applySqliteHistory(db, SQLITE_SCHEMA, version);
    return readSchema(db);
  } finally {
    db.close();
  }
}

function readSchema(db: Database): SchemaEntry[] {
  return db.query<SchemaEntry, []>("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").all();
}

/** The current state database, once nothing else has it open, locked for the swap; StateCopyRefused otherwise. */
function lockUnused(stateFile: string, dataDir: string): Database | undefined {
  let db: Database;
  try {
    db = new Database(stateFile, { readwrite: true, create: false, strict: true });
  } catch {
    // Not openable at all (damaged): nobody can be using it either; it is kept aside as it is.
    return undefined;
  }
  try {
    db.run("PRAGMA busy_timeout = 0");
    db.query("PRAGMA journal_mode = DELETE").get();
    db.run("BEGIN EXCLUSIVE");
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY") || (error as { code?: string }).code?.startsWith("SQLITE_LOCKED")) {
      throw new StateCopyRefused(
        `the data directory ${dataDir} is in use: a foodapi server (or another foodapi command) has its state database open; stop it first (e.g. systemctl stop foodapi), then restore; nothing was changed`,
      );
    }
    // Damaged in a way only a read shows: kept aside as it is.
    return undefined;
  }
}

/**
 * Run as root in a directory another user owns (a restore into a service's, e.g. systemd's DynamicUser
 * one): that user can rename anything in it, so the copy is written beside it (./file-beside.ts).
 */
function rootInAnotherUsersDirectory(dataDir: string): boolean {
  return process.geteuid?.() === 0 && statSync(dataDir).uid !== 0;
}

/**
 * Run as root (a restore into a service's directory, e.g. systemd's DynamicUser), the restored file is
 * given the data directory's owner: a root-owned database would stop the service from opening it.
 */
function giveDirectoryOwner(file: string, dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  const { uid, gid } = statSync(dataDir);
  if (uid !== 0 || gid !== 0) chownSync(file, uid, gid);
}

function readSchemaVersion(file: string): number {
  const db = new Database(file, { readonly: true, strict: true });
  try {
    return db.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version;
  } finally {
    db.close();
  }
}

function removeEmptyDirectory(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Not empty (someone else's files): left as it is.
  }
}

function removeQuietly(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      unlinkSync(file);
    } catch {
      // Not there: nothing to remove.
    }
  }
}
