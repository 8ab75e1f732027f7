import type { Database } from "bun:sqlite";
import { baselineVersion, latestVersion, type SchemaHistory } from "./schema-history";
import { shapeDifferences } from "./schema-shape";
import { sqliteShape, sqliteShapeOfSnapshot } from "./sqlite-shape";
import { DataDirUnusable } from "./storage-fault";

/**
 * Brings the state database to the latest version of `history` (schema-history.ts): the schema versions it
 * went from and to, if any. `PRAGMA user_version` is the version. One step per IMMEDIATE transaction, the
 * version re-read inside it: processes starting together on one data directory take turns instead of
 * applying a step twice.
 *
 * Foreign keys are not enforced while migrating, and checked before each commit: drizzle-kit rebuilds a
 * table to change it (copy, drop, rename), and dropping a parent table with enforcement on would delete
 * its children's rows. `PRAGMA foreign_keys` cannot change inside a transaction, so it is set around them.
 * @public required by state-db.ts for a database at another version, which knip does not follow
 */
export function migrateSqlite(sqlite: Database, history: SchemaHistory): { from: number; to: number } | null {
  const latest = latestVersion(history);
  const schemaVersion = () => sqlite.query<{ user_version: number }, []>("PRAGMA user_version").get()!.user_version;
  const step = sqlite.transaction((): { from: number; to: number } | null => {
    const from = schemaVersion();
    if (from > latest) {
      throw new DataDirUnusable(`the state database ${sqlite.filename} is at schema version ${from}, newer than this foodapi knows (${latest}); run the newer version`);
    }
    if (from === latest) return null;
    const to = applyStep(sqlite, history, from);
    const broken = sqlite.query("PRAGMA foreign_key_check").all();
    if (broken.length > 0) throw new Error(`migrating to schema ${to} would break ${broken.length} foreign keys: ${JSON.stringify(broken.slice(0, 3))}`);
    sqlite.run(`PRAGMA user_version = ${to}`);
    return { from, to };
  });
  sqlite.run("PRAGMA foreign_keys = OFF");
  try {
    let first: number | null = null;
    let last = 0;
    for (let applied = step.immediate(); applied !== null; applied = step.immediate()) {
      first ??= applied.from;
      last = applied.to;
    }
    return first === null ? null : { from: first, to: last };
  } finally {
    sqlite.run("PRAGMA foreign_keys = ON");
  }
}

/** Applies the step after version `from` (inside the caller's transaction); the version it reaches. */
function applyStep(sqlite: Database, history: SchemaHistory, from: number): number {
  const legacyEnd = history.legacy.length;
  // A new database starts from the baseline, not from the legacy history.
  if (from === 0) return applyGenerated(sqlite, history, 0);
  if (from < legacyEnd) {
    sqlite.run(history.legacy[from]!);
    return from + 1;
  }
  if (from === legacyEnd) {
    adopt(sqlite, history);
    return baselineVersion(history);
  }
  return applyGenerated(sqlite, history, from - legacyEnd);
}

function applyGenerated(sqlite: Database, history: SchemaHistory, index: number): number {
  for (const statement of history.generated[index]!.statements) sqlite.run(statement);
  return history.legacy.length + 1 + index;
}

/**
 * A database at the legacy history's end becomes one at the baseline: its tables must hold what the
 * baseline's hold (held to the baseline's snapshot, defaults aside: they decide no stored value), and
 * are then rebuilt by the baseline itself, rows and AUTOINCREMENT counters carried over. From then on it
 * is exactly what a new database is (indexes, constraint names, no WITHOUT ROWID), so later generated
 * migrations and `foodapi restore` find what they expect.
 */
function adopt(sqlite: Database, history: SchemaHistory): void {
  const withoutDefaults = (lines: string[]) => lines.filter((line) => !line.startsWith("default "));
  const differences = shapeDifferences(withoutDefaults(sqliteShapeOfSnapshot(history.baseline)), withoutDefaults(sqliteShape(sqlite)));
  if (differences.length > 0) {
    throw new DataDirUnusable(
      `the state database ${sqlite.filename} is at schema version ${history.legacy.length} but its tables are not that version's (${differences.slice(0, 3).join("; ")}${differences.length > 3 ? `; ${differences.length - 3} more` : ""}); restore a backup made by foodapi`,
    );
  }
  const tables = sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .all()
    .map((table) => table.name);
  // Index names are the database's: the old ones go before the baseline makes them again.
  for (const { name } of sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL").all()) {
    sqlite.run(`DROP INDEX ${quote(name)}`);
  }
  for (const table of tables) sqlite.run(`ALTER TABLE ${quote(table)} RENAME TO ${quote(`${OLD}${table}`)}`);
  for (const statement of history.generated[0]!.statements) sqlite.run(statement);
  for (const table of tables) {
    const columns = sqlite
      .query<{ name: string }, []>(`PRAGMA table_info(${quote(table)})`)
      .all()
      .map((column) => quote(column.name))
      .join(", ");
    sqlite.run(`INSERT INTO ${quote(table)} (${columns}) SELECT ${columns} FROM ${quote(`${OLD}${table}`)}`);
    // An AUTOINCREMENT counter goes on from where it was, not from the highest row left.
    if (sqlite.query("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'").get()) {
      sqlite.run("DELETE FROM sqlite_sequence WHERE name = ?1 AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?2)", [table, `${OLD}${table}`]);
      sqlite.run("UPDATE sqlite_sequence SET name = ?1 WHERE name = ?2", [table, `${OLD}${table}`]);
    }
    sqlite.run(`DROP TABLE ${quote(`${OLD}${table}`)}`);
  }
}

/** The prefix old tables take while the baseline makes the new ones. */
const OLD = "foodapi_adopted_";

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The schema at `version`, made on an empty database (for comparing a backup with it: state-backup.ts). */
export function applySqliteHistory(sqlite: Database, history: SchemaHistory, version: number): void {
  const legacyEnd = history.legacy.length;
  if (version <= legacyEnd) {
    for (const migration of history.legacy.slice(0, version)) sqlite.run(migration);
    return;
  }
  for (let index = 0; index < version - legacyEnd; index++) applyGenerated(sqlite, history, index);
}
