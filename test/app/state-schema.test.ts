import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getTableName, type Table } from "drizzle-orm";
import { generateDrizzleJson, generateMigration, generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api";
import * as postgresTables from "../../src/app/state/postgres-tables";
import * as sqliteTables from "../../src/app/state/sqlite-tables";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA } from "../../src/app/state/state-schema";

/**
 * The committed migrations (src/app/state/migrations/) against the declared tables: what
 * `npm run db:generate` would write now, computed in process by drizzle-kit's own differ from the last
 * committed snapshot. Anything it finds is a declaration changed without its migration.
 */
const ROOT = join(import.meta.dir, "../..");

/** The snapshot after the newest committed migration of `dialect`. */
function lastSnapshot(dialect: "sqlite" | "postgres") {
  const folder = join(ROOT, "src/app/state/migrations", dialect, "meta");
  const journal = JSON.parse(readFileSync(join(folder, "_journal.json"), "utf8")) as { entries: { idx: number }[] };
  const last = Math.max(...journal.entries.map((entry) => entry.idx));
  return JSON.parse(readFileSync(join(folder, `${String(last).padStart(4, "0")}_snapshot.json`), "utf8"));
}

describe("the state schema's migrations", () => {
  test("SQLite: drizzle-kit generates nothing new from the declared tables (run npm run db:generate if it does)", async () => {
    expect(await generateSQLiteMigration(lastSnapshot("sqlite"), await generateSQLiteDrizzleJson(sqliteTables))).toEqual([]);
  });

  test("PostgreSQL: drizzle-kit generates nothing new from the declared tables (run npm run db:generate if it does)", async () => {
    expect(await generateMigration(lastSnapshot("postgres"), generateDrizzleJson(postgresTables))).toEqual([]);
  });

  test("the binary carries every committed migration, in the journal's order", () => {
    for (const [dialect, history] of [
      ["sqlite", SQLITE_SCHEMA],
      ["postgres", POSTGRES_SCHEMA],
    ] as const) {
      const journal = JSON.parse(readFileSync(join(ROOT, "src/app/state/migrations", dialect, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
      expect(history.generated.map((migration) => migration.tag)).toEqual(journal.entries.map((entry) => entry.tag));
      expect(history.generated[0]!.statements.length).toBeGreaterThan(10);
    }
  });

  test("both backends have the same tables, but for SQLite's revocation log", () => {
    const names = (tables: Record<string, Table>) => Object.values(tables).map((table) => getTableName(table)).sort();
    expect(names(sqliteTables).filter((name) => name !== "key_revocations")).toEqual(names(postgresTables));
  });
});
