import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LEGACY_SQLITE_MIGRATIONS } from "../../src/app/state/legacy-sqlite-migrations";
import { openSqliteStateDb } from "../../src/app/state/sqlite-state";
import { SQLITE_SCHEMA } from "../../src/app/state/state-schema";
import { latestVersion } from "../../src/platform/storage/schema-history";
import { sqliteShape } from "../../src/platform/storage/sqlite-shape";
import { DataDirUnusable } from "../../src/platform/storage/storage-fault";
import { declaredSqliteShape } from "../helpers/declared-schema";
import { startServer } from "../helpers/binary";
import { jsonPost } from "../helpers/http";

describe("the state database", () => {
  test("migrations produce exactly the tables, columns, keys and indexes the declared tables describe", async () => {
    const state = openSqliteStateDb(mkdtempSync(join(tmpdir(), "foodapi-state-")));
    try {
      expect(state.sqlite.query("PRAGMA user_version").get()).toEqual({ user_version: latestVersion(SQLITE_SCHEMA) });
      expect(state.sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
      expect(sqliteShape(state.sqlite)).toEqual(await declaredSqliteShape());
    } finally {
      state.sqlite.close();
    }
  });

  test("opening it again (as a restart does) applies nothing twice; only migrating an existing database is logged", () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-state-"));
    const lines: string[] = [];
    // A database left at schema 2, as an old release would.
    const old = new Database(join(dir, "state.sqlite"));
    for (const migration of LEGACY_SQLITE_MIGRATIONS.slice(0, 2)) old.run(migration);
    old.run("PRAGMA user_version = 2");
    old.close();
    openSqliteStateDb(dir, (line) => lines.push(line)).sqlite.close();
    expect(lines).toEqual([`state database ${join(dir, "state.sqlite")}: migrated from schema 2 to ${latestVersion(SQLITE_SCHEMA)}`]);
    const again = openSqliteStateDb(dir, (line) => lines.push(line));
    expect(again.sqlite.query("PRAGMA user_version").get()).toEqual({ user_version: latestVersion(SQLITE_SCHEMA) });
    again.sqlite.close();
    const fresh = mkdtempSync(join(tmpdir(), "foodapi-state-"));
    openSqliteStateDb(fresh, (line) => lines.push(line)).sqlite.close();
    expect(lines).toHaveLength(1);
  });

  /** A data directory as the last release of the hand-written history left it (schema 8), with a row in every table. */
  function legacyDataDir(): { dir: string; rows: Record<string, string[]> } {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-legacy-"));
    const db = new Database(join(dir, "state.sqlite"), { strict: true });
    for (const [version, migration] of LEGACY_SQLITE_MIGRATIONS.entries()) {
      db.run(migration);
      db.run(`PRAGMA user_version = ${version + 1}`);
    }
    db.run("INSERT INTO users VALUES ('u1', 'a@example.com', 'A', 1, NULL, 'hash', 1, 2, NULL), ('u2', 'b@example.com', 'B', 0, 'img', NULL, 3, 4, 5)");
    db.run("INSERT INTO sessions VALUES ('s1', 'th', 'u1', 10, 1, 1, 2, '127.0.0.1', 'agent')");
    db.run("INSERT INTO api_keys VALUES ('k1', 'u1', 'kept', 'fnk_a', 'kh1', 'free', 1, 5, NULL), ('k2', 'u1', 'gone', 'fnk_b', 'kh2', 'free', 2, NULL, 9)");
    db.run("INSERT INTO key_usage VALUES ('k1', 100, 7, 1)");
    db.run("INSERT INTO rate_counters VALUES ('key:k1', 42, 3, 99)");
    db.run("INSERT INTO secrets VALUES ('trial', 's3cret')");
    db.run("INSERT INTO used_challenges VALUES ('c1', 50)");
    db.run("INSERT INTO trial_usage VALUES ('j1', 7, 60)");
    db.run("INSERT INTO storage_probe VALUES (1, 70)");
    // Three revocations of which the newest was swept: the log's counter is ahead of its rows.
    db.run("INSERT INTO key_revocations (key_hash, revoked_at) VALUES ('kh2', 9), ('kx', 10), ('ky', 11)");
    db.run("DELETE FROM key_revocations WHERE seq = 3");
    const rows = allRows(db);
    db.close();
    return { dir, rows };
  }

  const allRows = (db: Database) =>
    Object.fromEntries(
      db
        .query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .all()
        .map(({ name }) => [name, db.query(`SELECT * FROM "${name}"`).all().map((row) => JSON.stringify(row)).sort()]),
    );

  test("a database made by the hand-written history (schema 8) is adopted: every row kept, then exactly a new database's schema", () => {
    const { dir, rows } = legacyDataDir();
    const lines: string[] = [];
    const adopted = openSqliteStateDb(dir, (line) => lines.push(line));
    const fresh = openSqliteStateDb(mkdtempSync(join(tmpdir(), "foodapi-state-")));
    try {
      expect(lines).toEqual([`state database ${join(dir, "state.sqlite")}: migrated from schema ${LEGACY_SQLITE_MIGRATIONS.length} to ${latestVersion(SQLITE_SCHEMA)}`]);
      expect(allRows(adopted.sqlite)).toEqual(rows);
      const schema = "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name <> 'sqlite_sequence' ORDER BY type, name";
      expect(adopted.sqlite.query(schema).all()).toEqual(fresh.sqlite.query(schema).all());
      // The revocation log counts on from where it was: the next entry is 4, not a reused 3.
      adopted.sqlite.run("INSERT INTO key_revocations (key_hash, revoked_at) VALUES ('kz', 12)");
      expect(adopted.sqlite.query("SELECT max(seq) AS seq FROM key_revocations").get()).toEqual({ seq: 4 });
      expect(adopted.sqlite.query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
      expect(adopted.sqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    } finally {
      adopted.sqlite.close();
      fresh.sqlite.close();
    }
  });

  test("a database at schema 8 whose tables are not schema 8's is refused, naming the difference, and left as it was", () => {
    const { dir } = legacyDataDir();
    const db = new Database(join(dir, "state.sqlite"));
    db.run("ALTER TABLE users ADD COLUMN nickname TEXT");
    db.run("DROP INDEX sessions_user_idx");
    db.close();
    const error = (() => {
      try {
        openSqliteStateDb(dir).sqlite.close();
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(DataDirUnusable);
    expect(error!.message).toContain(`is at schema version ${LEGACY_SQLITE_MIGRATIONS.length} but its tables are not that version's`);
    expect(error!.message).toContain("missing index sessions_user_idx on sessions (user_id)");
    expect(error!.message).toContain("unexpected column users.nickname text");
    const after = new Database(join(dir, "state.sqlite"), { readonly: true });
    expect(after.query("PRAGMA user_version").get()).toEqual({ user_version: LEGACY_SQLITE_MIGRATIONS.length });
    expect(after.query("SELECT count(*) AS n FROM users").get()).toEqual({ n: 2 });
    after.close();
  });

  test("an acknowledged sign-up and key survive SIGKILL of the binary", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-kill-"));
    const first = await startServer({ cwd });
    const signedUp = await fetch(`${first.url}/api/auth/sign-up/email`, jsonPost({ email: "durable@example.com", password: "durable password", name: "D" }));
    expect(signedUp.status).toBe(200);
    const cookie = /foodapi\.session_token=[^;]*/.exec(signedUp.headers.get("set-cookie")!)![0];
    const { key } = (await (await fetch(`${first.url}/v1/keys`, jsonPost({ name: "k" }, { cookie }))).json()) as { key: string };
    first.process.kill("SIGKILL");
    await first.process.exited;

    const second = await startServer({ cwd });
    try {
      expect((await fetch(`${second.url}/v1/nutrients`, { headers: { "x-api-key": key } })).status).toBe(200);
      const session = await fetch(`${second.url}/api/auth/get-session`, { headers: { cookie } });
      expect(((await session.json()) as any).user.email).toBe("durable@example.com");
    } finally {
      await second.stop();
    }
  });
});
