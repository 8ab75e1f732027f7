import { afterAll, describe, expect, test } from "bun:test";
import type { SweepReport } from "../../src/platform/storage/housekeeping";
import { obtainTrialToken } from "../helpers/altcha";
import { jsonPost, sessionCookie } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { TEST_BACKEND } from "../helpers/test-backend";

/** Nothing grows without bound (design §14): the housekeeping job, driven with an injected clock. */
const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function appAt(start: number, env: Record<string, string> = {}) {
  const clock = { now: start };
  const app = await createTestApp({ clock: () => clock.now, env });
  apps.push(app);
  const count = (table: string) => app.state.count(table);
  const sweepUntilDone = async () => {
    const reports: SweepReport[] = [];
    do reports.push(await app.app.housekeeping.run());
    while (reports.at(-1)!.more && reports.length < 1000);
    return reports;
  };
  return { app, clock, count, sweepUntilDone };
}

/**
 * What the sweep removes. With Redis, the rate counters and revocations are not rows: Redis expires them by
 * itself, on its own clock, not the injected one (test/app/redis-counters.test.ts checks that), and there is
 * nothing of them to sweep. Trial usage and redeemed challenges are rows on either backend.
 */
const SWEPT = ["sessions", "trial_usage", "used_challenges", ...(TEST_BACKEND === "sqlite" ? ["rate_counters", "key_revocations"] : [])];

describe("housekeeping", () => {
  // SQLite only: on PostgreSQL + Redis the counters are Redis keys that expire by Redis's clock, and the sweep has none to drain.
  test.skipIf(TEST_BACKEND !== "sqlite")("100,000 client IPs against sign-in: counters and leases go back to the live set", async () => {
    const { app, clock, count, sweepUntilDone } = await appAt(Date.parse("2026-06-01T12:00:00Z"));
    const clients = 100_000;
    for (let i = 0; i < clients; i++) {
      const ip = `127.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      // A body that fails validation: the limiter counts before it, and no argon2 work is done.
      const response = await app.app.handle(new Request("http://127.0.0.1/api/auth/sign-in/email", jsonPost({}, { "cf-connecting-ip": ip })));
      if (response.status !== 400) throw new Error(`client ${i}: ${response.status}`);
    }
    expect(await count("rate_counters")).toBe(clients);
    // One client is still live after the window of the others has passed.
    clock.now += 61_000;
    expect((await app.request("/api/auth/sign-in/email", jsonPost({}, { "cf-connecting-ip": "127.255.0.1" }))).status).toBe(400);
    clock.now += 1_000;
    const reports = (await sweepUntilDone());
    // Each run is bounded; the backlog took several.
    expect(reports.length).toBeGreaterThan(clients / 5000);
    expect(reports.every((report) => Object.values(report.removed).every((n) => n <= 5000 * 2))).toBe(true);
    expect(await count("rate_counters")).toBe(1);
    expect(reports.at(-1)!.leases).toBeLessThanOrEqual(1);
    clock.now += 120_000;
    expect((await sweepUntilDone()).at(-1)!.leases).toBe(0);
    expect(await count("rate_counters")).toBe(0);
  }, 120_000);

  test("a state database a month old holds no expired rows, and every live object is still there", async () => {
    // Now: altcha-lib checks a challenge's expiry against the real clock.
    const start = Date.now();
    const { app, clock, count, sweepUntilDone } = await appAt(start, { FOODAPI_TRIAL_IP_LIMIT: "100/1h" });
    const ip = (n: number) => ({ "cf-connecting-ip": `127.0.2.${n}` });
    const cookies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const signUp = await app.request("/api/auth/sign-up/email", jsonPost({ email: `m${i}@example.com`, password: "password123", name: "M" }, ip(i)));
      cookies.push(sessionCookie(signUp));
    }
    const keyOf = async (name: string) => (await (await app.request("/v1/keys", jsonPost({ name }, { cookie: cookies[0]! }))).json()) as any;
    const kept = await keyOf("kept");
    const revoked = await keyOf("revoked");
    expect((await app.request(`/v1/keys/${revoked.id}`, { method: "DELETE", headers: { cookie: cookies[0]! } })).status).toBe(204);
    const { token } = await obtainTrialToken((path, init) => app.request(path, init));
    for (let i = 0; i < 3; i++) await app.request("/v1/food-groups", { headers: { authorization: `Bearer ${token}` } });
    await app.request("/v1/food-groups", { headers: { "x-api-key": kept.key } });
    for (const table of SWEPT) expect([table, (await count(table)) > 0]).toEqual([table, true]);
    expect(await count("api_keys")).toBe(2);

    clock.now = start + 31 * 24 * 3600 * 1000;
    (await sweepUntilDone());
    for (const table of SWEPT) expect([table, await count(table)]).toEqual([table, 0]);
    // The revoked key is gone; the accounts and the active key are not, and the key still works.
    expect(await app.state.rows("SELECT name FROM api_keys")).toEqual([{ name: "kept" }]);
    expect(await count("users")).toBe(3);
    expect((await app.request("/v1/food-groups", { headers: { "x-api-key": kept.key } })).status).toBe(200);
  });
});
