import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { sessions, users } from "../../src/accounts/sqlite-schema";
import { storageProbe } from "../../src/platform/storage/schema";
import { openStateDb } from "../../src/platform/storage/state-db";
import { STATE_MIGRATIONS } from "../../src/platform/storage/state-migrations";
import { apiKeys, keyRevocations } from "../../src/keys/sqlite-schema";
import { rateCounters } from "../../src/limits/sqlite-schema";
import { secrets, trialUsage, usedChallenges } from "../../src/trial/sqlite-schema";
import { keyUsage } from "../../src/usage/sqlite-schema";
import { startServer } from "../helpers/binary";
import { jsonPost } from "../helpers/http";

describe("the state database", () => {
  test("migrations produce exactly the tables and columns the drizzle schemas describe", () => {
    const state = openStateDb(mkdtempSync(join(tmpdir(), "foodapi-state-")));
    try {
      expect(state.sqlite.query("PRAGMA user_version").get()).toEqual({ user_version: STATE_MIGRATIONS.length });
      expect(state.sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
      const tables = [users, sessions, apiKeys, keyRevocations, rateCounters, secrets, usedChallenges, trialUsage, storageProbe, keyUsage] as SQLiteTable[];
      const actualTables = state.sqlite
        // sqlite_sequence is SQLite's own, for AUTOINCREMENT.
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence' ORDER BY name")
        .all()
        .map((t) => t.name);
      expect(actualTables).toEqual(tables.map((t) => getTableConfig(t).name).sort());
      for (const table of tables) {
        const config = getTableConfig(table);
        const columns = state.sqlite.query<{ name: string; notnull: number }, []>(`PRAGMA table_info(${config.name})`).all();
        expect(columns.map((c) => `${config.name}.${c.name}:${c.notnull === 1}`).sort()).toEqual(
          config.columns.map((c) => `${config.name}.${c.name}:${c.notNull && !c.primary}`).sort(),
        );
      }
    } finally {
      state.sqlite.close();
    }
  });

  test("opening it again (as a restart does) applies nothing twice; only migrating an existing database is logged", () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-state-"));
    const lines: string[] = [];
    // A database left at schema 2, as an old release would.
    const old = new Database(join(dir, "state.sqlite"));
    for (const migration of STATE_MIGRATIONS.slice(0, 2)) old.run(migration);
    old.run("PRAGMA user_version = 2");
    old.close();
    openStateDb(dir, (line) => lines.push(line)).sqlite.close();
    expect(lines).toEqual([`state database ${join(dir, "state.sqlite")}: migrated from schema 2 to ${STATE_MIGRATIONS.length}`]);
    const again = openStateDb(dir, (line) => lines.push(line));
    expect(again.sqlite.query("PRAGMA user_version").get()).toEqual({ user_version: STATE_MIGRATIONS.length });
    again.sqlite.close();
    const fresh = mkdtempSync(join(tmpdir(), "foodapi-state-"));
    openStateDb(fresh, (line) => lines.push(line)).sqlite.close();
    expect(lines).toHaveLength(1);
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
