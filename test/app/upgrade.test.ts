import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQLITE_SCHEMA } from "../../src/app/state/state-schema";
import { latestVersion } from "../../src/platform/storage/schema-history";
import type { FixtureFacts } from "../fixtures/make-data-fb787c4";
import fixture from "../fixtures/data-fb787c4.json";
import { type RunningServer, startServer } from "../helpers/binary";
import { jsonPost, sessionCookie } from "../helpers/http";

/**
 * Upgrading: a data directory written by the release before (the binary of commit fb787c4, see
 * test/fixtures/make-data-fb787c4.ts) opens in this binary, which migrates it forward at start and says
 * so, and serves every account, key and trial token it held.
 */
const facts: FixtureFacts = fixture;
const FIXTURE_DIR = join(import.meta.dir, "../fixtures/data-fb787c4");
const LATEST = latestVersion(SQLITE_SCHEMA);

describe("upgrading from the data directory of fb787c4", () => {
  const root = mkdtempSync(join(tmpdir(), "foodapi-upgrade-"));
  const dataDir = join(root, "data");
  cpSync(FIXTURE_DIR, dataDir, { recursive: true });
  const started: RunningServer[] = [];
  const start = async () => {
    const server = await startServer({ cwd: root, args: ["--data-dir", dataDir, "--workers", "1", "--client-ip-header", ""] });
    started.push(server);
    return server;
  };

  afterAll(async () => {
    for (const server of started) if (server.process.exitCode === null) await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test("the fixture is at the old schema", () => {
    // The header's user_version word, read without opening (and so without touching) the copy.
    expect(readFileSync(join(dataDir, "state.sqlite")).readUInt32BE(60)).toBe(facts.schemaVersion);
    expect(facts.schemaVersion).toBeLessThan(LATEST);
  });

  test("the new binary migrates it at start and logs the migration", async () => {
    const server = await start();
    expect(server.stderr()).toContain(`state database ${join(dataDir, "state.sqlite")}: migrated from schema ${facts.schemaVersion} to ${LATEST}`);

    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, jsonPost({ email: facts.email, password: facts.password }));
    expect(signIn.status).toBe(200);
    const cookie = sessionCookie(signIn);
    const session = (await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })).json()) as { user: { email: string } };
    expect(session.user.email).toBe(facts.email);
    const keys = (await (await fetch(`${server.url}/v1/keys`, { headers: { cookie } })).json()) as { items: { id: string; name: string }[] };
    expect(keys.items.map((k) => [k.id, k.name])).toEqual([[facts.keyId, "kept"]]);

    const search = await fetch(`${server.url}/v1/foods?q=cheddar&limit=3`, { headers: { "x-api-key": facts.key } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { total: number }).total).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/v1/nutrients`, { headers: { "x-api-key": facts.revokedKey } })).status).toBe(401);

    // The token's own requests were counted by the old binary; this one is the next.
    const trial = await fetch(`${server.url}/v1/nutrients`, { headers: { authorization: `Bearer ${facts.trialToken}` } });
    expect(trial.status).toBe(200);
    expect(trial.headers.get("ratelimit")).toMatch(new RegExp(`^"trial";r=${30 - facts.trialRequestsUsed - 1};`));
    expect(await server.stop()).toBe(0);
  });

  test("afterwards the database is at the latest schema, owner-only, and a restart migrates nothing", async () => {
    const file = join(dataDir, "state.sqlite");
    const db = new Database(file, { readonly: true });
    try {
      expect(db.query("PRAGMA user_version").get()).toEqual({ user_version: LATEST });
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    } finally {
      db.close();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = await start();
    expect(again.stderr()).not.toContain("state database");
    expect((await fetch(`${again.url}/v1/nutrients`, { headers: { "x-api-key": facts.key } })).status).toBe(200);
    expect(await again.stop()).toBe(0);
  });
});
