import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../helpers/binary";
import { jsonPost, sessionCookie } from "../helpers/http";
import { pollUntil } from "../helpers/wait";

/**
 * Account deletion and usage with the compiled binary at `--workers 2`: two processes, each with its own
 * key cache and its own usage counts, on one state database.
 */
const cwd = mkdtempSync(join(tmpdir(), "foodapi-self-service-"));
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ cwd, args: ["--workers", "2"] });
});
afterAll(async () => {
  await server?.stop();
});

const UNAUTHORIZED = { code: "UNAUTHORIZED", message: "A valid API key or trial token is required." };
const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

/** 40 requests on fresh connections: the kernel spreads them over both workers. */
const burst = (key: string) =>
  Promise.all(Array.from({ length: 40 }, () => fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": key, connection: "close" } })));

describe("two workers", () => {
  test("usage counted by both workers adds up; after delete-user the keys are 401 on both at once, and no row of the account is left", async () => {
    const signedUp = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email: "gone@example.com", password: "gone password", name: "Gone" }));
    const { user } = (await signedUp.json()) as { user: { id: string } };
    const cookie = sessionCookie(signedUp);
    const keys: { id: string; key: string; keyPrefix: string }[] = [];
    for (const name of ["a", "b"]) keys.push((await (await fetch(`${server.url}/v1/keys`, jsonPost({ name }, { cookie }))).json()) as any);

    for (const key of keys) expect((await burst(key.key)).map((r) => r.status)).toEqual(Array(40).fill(200));
    // Each worker writes its own counts; the store adds them up.
    await pollUntil(
      async () => {
        const { items } = (await (await fetch(`${server.url}/v1/keys/${keys[0]!.id}/usage`, { headers: { cookie } })).json()) as any;
        return items.length === 1 && items[0].allowed === 40 && items[0].refused === 0 ? true : undefined;
      },
      { ms: 5000, intervalMs: 100, what: "usage of 40 requests through two workers" },
    );
    const workers = await server.stdoutLines((entries) => new Set(entries.filter((e) => e.path === "/v1/food-groups").map((e) => e.worker)).size >= 2);
    expect(new Set(workers.map((line) => JSON.parse(line).worker))).toEqual(new Set([0, 1]));

    // Requests just before the deletion: their counts are still in the workers' memory when it happens.
    await burst(keys[1]!.key);
    const deleted = await fetch(`${server.url}/api/auth/delete-user`, jsonPost({ password: "gone password" }, { cookie }));
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, message: "User deleted" });
    for (const key of keys) {
      const answers = await burst(key.key);
      expect(answers.map((r) => r.status)).toEqual(Array(40).fill(401));
      for (const answer of answers.slice(0, 3)) expect(await answer.json()).toEqual(UNAUTHORIZED);
    }
    const session = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } });
    expect(await session.json()).toBeNull();

    // The e-mail can sign up again, as a new account.
    const again = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email: "gone@example.com", password: "another password", name: "Back" }));
    expect(again.status).toBe(200);
    const newId = ((await again.json()) as { user: { id: string } }).user.id;
    expect(newId).not.toBe(user.id);

    // Once both workers have written what they still counted (every 2 s; and at shutdown), nothing of the
    // deleted account is in any row of any table.
    await Bun.sleep(2500);
    const db = new Database(join(cwd, "data", "state.sqlite"), { readonly: true });
    try {
      const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      expect(tables.map((t) => t.name)).toContain("key_usage");
      const rows = tables.map(({ name }) => `${name}: ${JSON.stringify(db.query(`SELECT * FROM "${name}"`).all())}`).join("\n");
      const traces = [user.id, ...keys.flatMap((key) => [key.id, key.keyPrefix, sha256(key.key)])];
      for (const trace of traces) expect(rows).not.toContain(trace);
      expect(rows).toContain(newId);
      expect(db.query("SELECT count(*) AS n FROM key_usage").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
