import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { loggableError } from "../../src/platform/http/error-mapping";
import { createActiveKeys, KEY_CACHE_TTL_MS, KEY_REFRESH_AFTER_MS } from "../../src/keys/active-keys";
import { obtainTrialToken } from "../helpers/altcha";
import { jsonPost, sessionCookie } from "../helpers/http";
import { BASE, createTestApp, type TestApp } from "../helpers/test-app";

/** Regression tests for the hardening findings (design §14), in-process; the binary's side is in hardening-binary.test.ts. */
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "3/1m", FOODAPI_TRIAL_IP_LIMIT: "1000/1h" } });
  key = (await t.issueKey()).key;
});
afterAll(() => t.close());

const signIn = (url: string) => t.app.handle(new Request(url, jsonPost({ email: "nobody@example.com", password: 1 })));

describe("per-IP limits count the route as matched, not the raw path", () => {
  test("a short Host header does not route a prefixed path to sign-in", async () => {
    const response = await t.app.handle(new Request("http://x/anything/api/auth/sign-in/email", jsonPost({})));
    expect(response.status).toBe(404);
  });

  test("a trailing slash and another Host share the route's bucket", async () => {
    const answers = [];
    for (const url of [`${BASE}/api/auth/sign-in/email/`, "http://x/api/auth/sign-in/email", "http://y/api/auth/sign-in/email/", `${BASE}/api/auth/sign-in/email`]) {
      answers.push((await signIn(url)).status);
    }
    expect(answers).toEqual([400, 400, 400, 429]);
    // Sign-up is another route with its own bucket.
    expect((await t.request("/api/auth/sign-up/email", jsonPost({}))).status).toBe(400);
  });
});

describe("search parameters that cannot match", () => {
  const search = (query: string) => t.request(`/v1/foods?${query}`, { headers: { "x-api-key": key } });

  test("a NUL or other control character in q is an empty page, not a 500", async () => {
    for (const q of ["ab%00", "%00", "chee%01se", "butter%7F"]) {
      const response = await search(`q=${q}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ items: [], total: 0, page: 1, limit: 20 });
    }
    expect(t.errors).toEqual([]);
  });

  test("a group that is not 4 digits is an empty page with the applied paging", async () => {
    for (const group of ["x".repeat(5000), "010", "01000", "０１００"]) {
      const response = await search(`group=${encodeURIComponent(group)}&limit=5&page=2`);
      expect(await response.json()).toEqual({ items: [], total: 0, page: 2, limit: 5 });
    }
    expect(((await (await search("group=0100&limit=1")).json()) as any).total).toBe(283);
  });
});

describe("headers", () => {
  test("every kind of answer carries nosniff", async () => {
    const cookie = sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email: "h@example.com", password: "password123", name: "H" })));
    const issued = (await (await t.request("/v1/keys", jsonPost({ name: "k" }, { cookie }))).json()) as any;
    const responses = [
      await t.request("/v1/meta"),
      await t.request("/healthz"),
      await t.request("/api/auth/get-session"),
      await t.request("/api/auth/get-session", { headers: { cookie } }),
      await t.request("/v1/foods?q=milk", { headers: { "x-api-key": key } }),
      await t.request("/v1/foods/01001", { headers: { "x-api-key": key } }),
      await t.request("/v1/foods/01001", { method: "HEAD", headers: { "x-api-key": key } }),
      await t.request("/v1/foods"),
      await t.request("/no/such/route"),
      await t.request("/v1/keys", { headers: { cookie } }),
      await t.request(`/v1/keys/${issued.id}`, { method: "DELETE", headers: { cookie } }),
      await t.request("/"),
      await t.request("/openapi/json"),
    ];
    for (const response of responses) expect([response.url, response.headers.get("x-content-type-options")]).toEqual([response.url, "nosniff"]);
  });

  test("answers that carry a secret are no-store", async () => {
    // Another client IP: the sign-in bucket of the default one is used up above.
    const ip = { "cf-connecting-ip": "127.0.0.9" };
    const signUp = await t.request("/api/auth/sign-up/email", jsonPost({ email: "s@example.com", password: "password123", name: "S" }, ip));
    const cookie = sessionCookie(signUp);
    const signIn = await t.request("/api/auth/sign-in/email", jsonPost({ email: "s@example.com", password: "password123" }, ip));
    expect([signUp.status, signIn.status]).toEqual([200, 200]);
    const keyIssue = await t.request("/v1/keys", jsonPost({ name: "k" }, { cookie }));
    const trial = await t.request("/v1/trial-token", jsonPost({ challengeToken: "x" }));
    expect(trial.status).toBe(403);
    for (const response of [signUp, signIn, keyIssue]) expect(response.headers.get("cache-control")).toBe("no-store");
    let tokenResponse: Response | undefined;
    await obtainTrialToken(async (path, init) => (tokenResponse = await t.request(path, init)));
    expect(tokenResponse!.status).toBe(201);
    expect(tokenResponse!.headers.get("cache-control")).toBe("no-store");
  });

  test("account answers refused before the route is known are no-store too: a body over 16 KiB, declared or not, and malformed JSON", async () => {
    const ip = { "cf-connecting-ip": "127.0.0.10" };
    const url = "/api/auth/sign-in/email";
    const oversized = JSON.stringify({ email: "s@example.com", password: "x".repeat(20_000) });
    // Declared: refused by the shell before any route runs. Chunked (a stream, no length): by the body parser.
    const declared = await t.request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": String(oversized.length), ...ip }, body: oversized });
    const chunked = await t.request(url, { method: "POST", headers: { "content-type": "application/json", ...ip }, body: new Blob([oversized]).stream() });
    const malformed = await t.request(url, { method: "POST", headers: { "content-type": "application/json", ...ip }, body: "{" });
    const answers = await Promise.all([declared, chunked, malformed].map(async (r) => [r.status, ((await r.json()) as any).code, r.headers.get("cache-control")]));
    expect(answers).toEqual([
      [413, "PAYLOAD_TOO_LARGE", "no-store"],
      [413, "PAYLOAD_TOO_LARGE", "no-store"],
      [400, "INVALID_JSON", "no-store"],
    ]);
  });
});

describe("an exhausted trial token", () => {
  test("is refused from memory: no write transaction, even while the state database is locked for writing", async () => {
    const { token } = await obtainTrialToken((path, init) => t.request(path, init));
    const call = () => t.request("/v1/food-groups", { headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 30; i++) expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(429);
    // Another process holds the write lock (on PostgreSQL + Redis: the tables locked, Redis's writes paused).
    const unlock = await t.state.lockWrites();
    try {
      const started = performance.now();
      const refused = await call();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as any).code).toBe("TRIAL_QUOTA_EXHAUSTED");
      expect(refused.headers.get("ratelimit")).toMatch(/^"trial";r=0;t=\d+$/);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await unlock();
    }
  });
});

describe("input rules: WHATWG e-mail, lengths in code points, NFC, no control or bidi characters", () => {
  let n = 0;
  // A client IP of its own for each sign-up: the per-IP limit of this app is 3 a minute.
  const signUp = (body: Record<string, unknown>) =>
    t.request("/api/auth/sign-up/email", jsonPost(body, { "cf-connecting-ip": `127.0.1.${++n}` }));
  const refusal = async (body: Record<string, unknown>) => {
    const response = await signUp(body);
    return [response.status, ((await response.json()) as any).code];
  };
  const ok = { password: "password123", name: "N" };

  test("e-mail: control, bidi and look-alike characters and an over-long local part are INVALID_EMAIL", async () => {
    for (const email of ["al\u0000ice@example.com", "alice\u202E@example.com", "\u0430lice@example.com", "\u212Aelly@example.com", `${"a".repeat(65)}@example.com`, "a@-b.com", "a b@example.com"]) {
      expect([email, ...(await refusal({ ...ok, email }))]).toEqual([email, 400, "INVALID_EMAIL"]);
    }
    const accepted = await signUp({ ...ok, email: ` ${"B".repeat(64)}@Example.COM ` });
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as any).user.email).toBe(`${"b".repeat(64)}@example.com`);
  });

  test("passwords count code points: 4 emoji are too short, 100 emoji are fine", async () => {
    expect(await refusal({ email: "emoji1@example.com", name: "E", password: "😀😀😀😀" })).toEqual([400, "PASSWORD_TOO_SHORT"]);
    expect((await signUp({ email: "emoji2@example.com", name: "E", password: "😀".repeat(100) })).status).toBe(200);
    expect(await refusal({ email: "emoji3@example.com", name: "E", password: "😀".repeat(129) })).toEqual([400, "PASSWORD_TOO_LONG"]);
  });

  test("user names: NFC, trimmed, no control or bidi characters", async () => {
    for (const name of ["a\u0007b", "a\u202Eb", "\u2066x", "   ", "😀".repeat(101)]) {
      expect([name, ...(await refusal({ ...ok, email: `n${++n}@example.com`, name }))]).toEqual([name, 400, "VALIDATION_ERROR"]);
    }
    const response = await signUp({ ...ok, email: "nfc@example.com", name: " Rene\u0301 " });
    expect(((await response.json()) as any).user.name).toBe("Ren\u00e9");
    expect((await signUp({ ...ok, email: "long@example.com", name: "😀".repeat(100) })).status).toBe(200);
  });

  test("key names count code points and refuse control and bidi characters", async () => {
    const cookie = sessionCookie(await signUp({ ...ok, email: "keynames@example.com" }));
    const create = (name: string) => t.request("/v1/keys", jsonPost({ name }, { cookie }));
    expect((await create("😀".repeat(33))).status).toBe(201);
    expect((await create("😀".repeat(64))).status).toBe(201);
    for (const name of ["😀".repeat(65), "a\u0000", "x\u2069", ""]) expect([name, (await create(name)).status]).toEqual([name, 400]);
  });

  test("key routes without a session are 401 whatever the body", async () => {
    const bad = { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" };
    const answers = [
      await t.request("/v1/keys", bad),
      await t.request("/v1/keys", jsonPost({})),
      await t.request("/v1/keys", jsonPost({ name: 5 })),
      await t.request("/v1/keys/key_x", { ...bad, method: "DELETE" }),
      await t.request("/v1/keys", { ...bad, headers: { "content-type": "text/plain" } }),
    ];
    for (const response of answers) expect(await response.json()).toEqual({ code: "UNAUTHORIZED", message: "Sign in to manage API keys." });
  });
});

describe("RateLimit's t", () => {
  test("never exceeds the window, even for a request at the very start of a slot", async () => {
    const slotStart = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    const app = await createTestApp({ clock: () => slotStart });
    try {
      const response = await app.request("/v1/food-groups", { headers: { "x-api-key": (await app.issueKey()).key } });
      const [, t] = /;t=(\d+)$/.exec(response.headers.get("ratelimit")!)!;
      expect(response.headers.get("ratelimit-policy")).toBe('"free";q=1000;w=3600');
      expect(Number(t)).toBeLessThanOrEqual(3600);
      expect(Number(t)).toBeGreaterThan(3500);
    } finally {
      await app.close();
    }
  });
});

describe("key churn", () => {
  test("issuing is limited per account: past the limit 429 RATE_LIMITED with Retry-After", async () => {
    const app = await createTestApp({ env: { FOODAPI_KEY_ISSUE_LIMIT: "3/1h" } });
    try {
      const signUp = (email: string) => app.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "C" }));
      const cookie = sessionCookie(await signUp("churn@example.com"));
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const response = await app.request("/v1/keys", jsonPost({ name: `k${i}` }, { cookie }));
        statuses.push(response.status);
        if (response.status === 201) await app.request(`/v1/keys/${((await response.json()) as any).id}`, { method: "DELETE", headers: { cookie } });
        else {
          expect(((await response.json()) as any).code).toBe("RATE_LIMITED");
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
      // Per account: another one issues as usual.
      const other = sessionCookie(await signUp("other-churn@example.com"));
      expect((await app.request("/v1/keys", jsonPost({ name: "k" }, { cookie: other }))).status).toBe(201);
    } finally {
      await app.close();
    }
  });

  test("a revocation drops that key from another process's cache, not every key", async () => {
    const app = await createTestApp();
    try {
      const a = await app.issueKey("p@example.com", "a");
      const b = await app.issueKey("p@example.com", "b");
      // Another process on the same state: its own connections and key cache, its time still.
      const otherStores = await app.state.peer();
      const otherProcess = createActiveKeys({ store: otherStores.keys, revocations: otherStores.keyRevocations, clock: () => 0 });
      expect((await otherProcess.find(a.keyHash))?.id).toBe(a.id);
      expect((await otherProcess.find(b.keyHash))?.id).toBe(b.id);
      const thisProcess = createActiveKeys({ store: app.stores.keys, revocations: app.stores.keyRevocations, clock: Date.now });
      expect(await thisProcess.revoke(a.userId, a.id, Date.now())).toBe(true);
      expect(await otherProcess.find(a.keyHash)).toBeUndefined();
      // b is still answered from the cache: with its row gone behind the cache's back, it is still found.
      await app.state.rows("DELETE FROM api_keys WHERE id = ?", b.id);
      expect((await otherProcess.find(b.keyHash))?.id).toBe(b.id);
    } finally {
      await app.close();
    }
  });

  test("a busy key never waits for the store: its cached answer is asked again before it expires, once for all its requests", async () => {
    const app = await createTestApp();
    try {
      const key = await app.issueKey("busy@example.com", "a");
      let now = Date.parse("2026-06-01T00:00:00Z");
      let asked = 0;
      // The store as one over the network answers: what it held when asked, a macrotask later.
      const slow = {
        ...app.stores.keys,
        findActiveByHash: (hash: string) => {
          asked++;
          const answer = app.stores.keys.findActiveByHash(hash);
          return new Promise<Awaited<typeof answer>>((resolve, reject) => setTimeout(() => Promise.resolve(answer).then(resolve, reject), 0));
        },
      };
      const keys = createActiveKeys({ store: slow, revocations: { onRevoked() {}, takeRevoked: () => [] }, clock: () => now });
      // Fifty requests of a key not yet cached: one question to the store, one answer for all of them.
      const first = Array.from({ length: 50 }, () => keys.find(key.keyHash));
      expect(first.every((found) => found instanceof Promise)).toBe(true);
      expect((await Promise.all(first)).every((found) => found?.id === key.id)).toBe(true);
      expect(asked).toBe(1);
      // Old enough to be asked again: answered from the cache, and asked again meanwhile.
      now += KEY_REFRESH_AFTER_MS;
      expect((keys.find(key.keyHash) as { id: string } | undefined)?.id).toBe(key.id);
      expect(keys.find(key.keyHash)).not.toBeInstanceOf(Promise);
      expect(asked).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Past the first answer's bound, within the second's: still no wait.
      now += KEY_CACHE_TTL_MS / 2;
      expect((keys.find(key.keyHash) as { id: string } | undefined)?.id).toBe(key.id);
      expect(asked).toBe(2);

      // Revoked here while the store's next answer (still "active") is on its way: that answer is not
      // trusted, and the key is refused from the next request on.
      now += KEY_REFRESH_AFTER_MS;
      keys.find(key.keyHash);
      expect(asked).toBe(3);
      expect(await keys.revoke(key.userId, key.id, now)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await keys.find(key.keyHash)).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  test("a revocation whose signal is lost stops working within the cache's time bound", async () => {
    const app = await createTestApp();
    try {
      const key = await app.issueKey("lost@example.com", "a");
      let now = Date.parse("2026-06-01T00:00:00Z");
      const cached = createActiveKeys({ store: app.stores.keys, revocations: { onRevoked() {}, takeRevoked: () => [] }, clock: () => now });
      expect((await cached.find(key.keyHash))?.id).toBe(key.id);
      // Revoked in the store, and no process is told.
      expect((await app.stores.keys.revoke(key.userId, key.id, now))?.id).toBe(key.id);
      now += KEY_CACHE_TTL_MS - 1;
      expect((await cached.find(key.keyHash))?.id).toBe(key.id);
      now += 1;
      expect(await cached.find(key.keyHash)).toBeUndefined();
    } finally {
      await app.close();
    }
  });

});

describe("error logs", () => {
  test("a failed query is logged without its parameters (they can hold e-mail addresses and hashes)", () => {
    const failed = new DrizzleQueryError("insert into users values (?, ?)", ["a@example.com", "$argon2id$v=19$secret"], new Error("disk I/O error"));
    const line = loggableError(failed);
    expect(line).toContain("insert into users");
    expect(line).toContain("disk I/O error");
    expect(line).not.toContain("a@example.com");
    expect(line).not.toContain("argon2id");
  });
});

describe("data routes as the document describes them", () => {
  test("HEAD is GET without the body, behind the same guard, also for a path that is not valid percent-encoding", async () => {
    const head = (path: string, headers: Record<string, string> = {}) => t.request(path, { method: "HEAD", headers });
    const missing = await head("/v1/foods/%ED%A0%80", { "x-api-key": key });
    expect([missing.status, await missing.text()]).toEqual([404, ""]);
    expect(missing.headers.get("ratelimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    expect((await head("/v1/foods/%zz")).status).toBe(401);
    const found = await head("/v1/foods/01001/", { "x-api-key": key });
    expect([found.status, await found.text()]).toEqual([200, ""]);
  });

  test("a declared body over 16 KiB is 413 on the direct routes too", async () => {
    const response = await t.request("/v1/foods?q=milk", { headers: { "x-api-key": key, "content-length": "20000" } });
    expect([response.status, ((await response.json()) as any).code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });
});
