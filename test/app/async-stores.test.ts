import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { StateStores } from "../../src/app/state/state-stores";
import { obtainTrialToken } from "../helpers/altcha";
import { jsonPost, sessionCookie } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * The request path over stores that answer with promises, as PostgreSQL and Redis do: every store method
 * of the test backend wrapped to answer a turn of the event loop later (`takeRevoked` excepted: its
 * contract is a synchronous memory read). Over SQLite's synchronous stores, every rule holds as it does
 * unwrapped; over PostgreSQL + Redis (npm test's second run), the wrap only adds a turn.
 */
function answeringLater(stores: StateStores): StateStores {
  const later = <T extends object>(store: T): T =>
    Object.fromEntries(
      Object.entries(store).map(([name, method]) => [
        name,
        (...args: unknown[]) => new Promise((resolve, reject) => setImmediate(() => {
          try {
            resolve((method as (...a: unknown[]) => unknown)(...args));
          } catch (error) {
            reject(error);
          }
        })),
      ]),
    ) as T;
  return {
    accounts: later(stores.accounts),
    sessions: later(stores.sessions),
    keys: later(stores.keys),
    keyRevocations: { onRevoked: later(stores.keyRevocations).onRevoked, takeRevoked: stores.keyRevocations.takeRevoked },
    limits: later(stores.limits),
    trial: later(stores.trial),
    usage: later(stores.usage),
    ...later({ ping: stores.ping, probeWrite: stores.probeWrite, close: stores.close }),
  };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ stores: answeringLater, env: { FOODAPI_FREE_LIMIT: "5/1m", FOODAPI_AUTH_LIMIT: "4/1m", FOODAPI_TRIAL_IP_LIMIT: "100/1h" } });
});
afterAll(() => t.close());

const ip = (n: number) => ({ "cf-connecting-ip": `10.9.0.${n}` });

describe("the request path over stores that answer with promises", () => {
  test("sign-up, a key issued, listed, used (GET and HEAD), revoked, refused", async () => {
    const signUp = await t.request("/api/auth/sign-up/email", jsonPost({ email: "async@example.com", password: "password123", name: "A" }, ip(1)));
    expect(signUp.status).toBe(200);
    const cookie = sessionCookie(signUp);
    const session = (await (await t.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user: { email: string } };
    expect(session.user.email).toBe("async@example.com");

    const issued = await t.request("/v1/keys", jsonPost({ name: "laptop" }, { cookie }));
    expect(issued.status).toBe(201);
    const { id, key } = (await issued.json()) as { id: string; key: string };
    const listed = (await (await t.request("/v1/keys", { headers: { cookie } })).json()) as { items: { id: string }[] };
    expect(listed.items.map((k) => k.id)).toEqual([id]);

    const search = await t.request("/v1/foods?q=cheddar&limit=1", { headers: { "x-api-key": key } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { items: { name: string }[] }).items[0]!.name).toContain("heddar");
    expect(search.headers.get("ratelimit")).toBe('"free";r=4;t=60');
    const head = await t.request("/v1/foods/01009", { method: "HEAD", headers: { "x-api-key": key } });
    expect(head.status).toBe(200);
    expect(head.headers.get("ratelimit")).toBe('"free";r=3;t=60');

    expect((await t.request(`/v1/keys/${id}`, { method: "DELETE", headers: { cookie } })).status).toBe(204);
    const refused = await t.request("/v1/nutrients", { headers: { "x-api-key": key } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual(await (await t.request("/v1/nutrients")).json());

    expect((await t.request("/api/auth/sign-out", { method: "POST", headers: { cookie } })).status).toBe(200);
    expect(await (await t.request("/api/auth/get-session", { headers: { cookie } })).json()).toBeNull();
  });

  test("the free tier admits exactly its limit, then 429 with Retry-After", async () => {
    const { key } = await t.issueKey("free@example.com");
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.request("/v1/food-groups", { headers: { "x-api-key": key } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  test("parallel requests with one trial token: exactly 30 served", async () => {
    const { token } = await obtainTrialToken((path, init) => t.request(path, init), ip(2));
    const responses = await Promise.all(Array.from({ length: 40 }, () => t.request("/v1/nutrients", { headers: { authorization: `Bearer ${token}` } })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(30);
    expect(statuses.filter((s) => s === 429).length).toBe(10);
  });

  test("sign-in attempts per client IP are limited", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.request("/api/auth/sign-in/email", jsonPost({ email: "x@example.com", password: "wrong password" }, ip(3)))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  test("a store that rejects with a storage fault: 503 on data routes and /healthz, then recovery", async () => {
    const { key } = await t.issueKey("fault@example.com");
    await t.state.refuseWrites();
    try {
      // A new key is looked up in the store (a write follows: lastUsedAt), which now refuses writes.
      const refused = await t.request("/v1/foods?q=egg", { headers: { "x-api-key": key } });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { code: string }).code).toBe("SERVICE_UNAVAILABLE");
      expect((await t.request("/healthz")).status).toBe(503);
    } finally {
      await t.state.allowWrites();
    }
    const until = Date.now() + 5000;
    let health = 503;
    while (health !== 200 && Date.now() < until) health = (await t.request("/healthz")).status;
    expect(health).toBe(200);
    expect((await t.request("/v1/foods?q=egg", { headers: { "x-api-key": key } })).status).toBe(200);
  });

  test("housekeeping runs over them", async () => {
    const report = await t.app.housekeeping.run();
    expect(Object.keys(report.removed).sort()).toEqual(["keys", "rateCounters", "sessions", "trial", "usage"]);
  });
});
