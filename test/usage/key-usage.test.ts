import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HOUR_MS, hourOf } from "../../src/usage/recorder";
import { jsonPost, sessionCookie } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { pollUntil } from "../helpers/wait";

/**
 * Usage per key (design §12) through the HTTP interface: requests counted in memory, written in batches
 * within 5 s, shown per hour. The clock runs at real speed from ten minutes into an hour, so that a run
 * never straddles two hours.
 */
const start = Date.now();
const shifted = hourOf(start) + 10 * 60_000;
let now = () => shifted + (Date.now() - start);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: () => now(), env: { FOODAPI_FREE_LIMIT: "7/1m", FOODAPI_AUTH_LIMIT: "1000/1m" } });
});
afterAll(() => t.close());

async function account(email: string) {
  const cookie = sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email, password: "usage password", name: "U" })));
  const issued = (await (await t.request("/v1/keys", jsonPost({ name: "metered" }, { cookie }))).json()) as { id: string; key: string };
  return { cookie, ...issued };
}
const usage = async (cookie: string, id: string) => t.request(`/v1/keys/${id}/usage`, { headers: { cookie } });
const items = async (cookie: string, id: string) => ((await (await usage(cookie, id)).json()) as any).items as any[];
const isoHour = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

describe("GET /v1/keys/{id}/usage", () => {
  test("7 allowed and 3 refused requests on a 7/1m key show as one hour {allowed: 7, refused: 3} within 5 s", async () => {
    const { cookie, id, key } = await account("metered@example.com");
    expect(await items(cookie, id)).toEqual([]);
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await t.request("/v1/food-groups", { headers: { "x-api-key": key } })).status);
    expect(statuses).toEqual([...Array(7).fill(200), ...Array(3).fill(429)]);
    const sent = Date.now();
    const expected = [{ hour: isoHour(hourOf(now())), allowed: 7, refused: 3 }];
    // Nothing is written on the request path; the batch follows within 5 s.
    await pollUntil(async () => (JSON.stringify(await items(cookie, id)) === JSON.stringify(expected) ? true : undefined), {
      ms: 5000,
      intervalMs: 100,
      what: "the key's usage",
    });
    expect(Date.now() - sent).toBeLessThanOrEqual(5000);
    const response = await usage(cookie, id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: expected });
  });

  test("hours are listed oldest first, without empty ones, for the last 7 days only", async () => {
    const { cookie, id, key } = await account("history@example.com");
    const base = now;
    const at = async (offsetMs: number, requests: number) => {
      now = () => base() + offsetMs;
      for (let i = 0; i < requests; i++) await t.request("/v1/nutrients", { headers: { "x-api-key": key } });
      await t.app.usage.flush();
    };
    try {
      await at(-8 * 24 * HOUR_MS, 1); // older than 7 days: not shown, swept
      await at(-3 * HOUR_MS, 2);
      await at(-1 * HOUR_MS, 1);
      await at(0, 3);
    } finally {
      now = base;
    }
    const current = hourOf(now());
    expect(await items(cookie, id)).toEqual([
      { hour: isoHour(current - 3 * HOUR_MS), allowed: 2, refused: 0 },
      { hour: isoHour(current - HOUR_MS), allowed: 1, refused: 0 },
      { hour: isoHour(current), allowed: 3, refused: 0 },
    ]);
    const before = await t.state.count("key_usage");
    const report = await t.app.housekeeping.run();
    expect(report.removed.usage).toBe(1);
    expect(await t.state.count("key_usage")).toBe(before - 1);
    expect((await items(cookie, id)).length).toBe(3);
  });

  test("another account's key, an unknown or a revoked one: 404 KEY_NOT_FOUND; without a session: 401", async () => {
    const mine = await account("owner@example.com");
    const theirs = await account("nosy@example.com");
    for (const response of [await usage(theirs.cookie, mine.id), await usage(mine.cookie, "key_unknown")]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: "KEY_NOT_FOUND", message: "No such key." });
    }
    expect((await t.request(`/v1/keys/${mine.id}`, { method: "DELETE", headers: { cookie: mine.cookie } })).status).toBe(204);
    expect((await usage(mine.cookie, mine.id)).status).toBe(404);
    const anonymous = await t.request(`/v1/keys/${theirs.id}/usage`);
    expect(anonymous.status).toBe(401);
  });
});
