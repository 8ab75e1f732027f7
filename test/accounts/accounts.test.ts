import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_SESSIONS_PER_ACCOUNT } from "../../src/accounts/sessions";
import { jsonPost, sessionCookie, snapshot } from "../helpers/http";
import { ROOT } from "../helpers/paths";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  // A generous sign-in/up limit here; the limit itself is tested on its own app below.
  t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "1000/1m" } });
});
afterAll(() => t.close());

const signUp = (body: unknown, headers?: Record<string, string>) => t.request("/api/auth/sign-up/email", jsonPost(body, headers));
const signIn = (body: unknown, headers?: Record<string, string>) => t.request("/api/auth/sign-in/email", jsonPost(body, headers));

describe("sign-up", () => {
  test("creates the account, signs the caller in and returns Better Auth's shape", async () => {
    const response = await signUp({ email: "  Ann@Example.COM ", password: "correct horse", name: "Ann" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body).toEqual({
      token: expect.any(String),
      user: {
        id: expect.stringMatching(/^usr_/), email: "ann@example.com", name: "Ann", emailVerified: false, image: null,
        createdAt: expect.any(String), updatedAt: expect.any(String),
      },
    });
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toContain(`foodapi.session_token=${body.token}`);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("Max-Age=604800");
    expect(setCookie).not.toContain("Secure");
    const session = await t.request("/api/auth/get-session", { headers: { cookie: sessionCookie(response) } });
    expect(((await session.json()) as any).user.email).toBe("ann@example.com");
  });

  test("the same e-mail again, in any case, is 422", async () => {
    await signUp({ email: "dup@example.com", password: "password1", name: "A" });
    const again = await signUp({ email: "DUP@example.com ", password: "password2", name: "B" });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", message: expect.any(String) });
  });

  const invalid: [string, unknown, number, string][] = [
    ["an invalid e-mail", { email: "not-an-email", password: "password1", name: "A" }, 400, "INVALID_EMAIL"],
    ["a 10 kB e-mail", { email: `${"a".repeat(10_000)}@example.com`, password: "password1", name: "A" }, 400, "INVALID_EMAIL"],
    ["a short password", { email: "s@example.com", password: "short", name: "A" }, 400, "PASSWORD_TOO_SHORT"],
    ["a long password", { email: "l@example.com", password: "x".repeat(129), name: "A" }, 400, "PASSWORD_TOO_LONG"],
    ["an empty name", { email: "n@example.com", password: "password1", name: "  " }, 400, "VALIDATION_ERROR"],
    ["a 101-character name", { email: "n@example.com", password: "password1", name: "n".repeat(101) }, 400, "VALIDATION_ERROR"],
    ["a missing password", { email: "m@example.com", name: "A" }, 400, "VALIDATION_ERROR"],
    ["a number for the e-mail", { email: 42, password: "password1", name: "A" }, 400, "VALIDATION_ERROR"],
    ["an array body", [1, 2], 400, "VALIDATION_ERROR"],
    ["null", null, 400, "VALIDATION_ERROR"],
  ];
  for (const [label, body, status, code] of invalid) {
    test(`${label}: ${status} ${code}`, async () => {
      const response = await signUp(body);
      expect(response.status).toBe(status);
      const error = (await response.json()) as any;
      expect(error.code).toBe(code);
      if (code === "VALIDATION_ERROR") expect(error.message).toMatch(/name|password|email|body/);
    });
  }

  test("a body that is not JSON is 400 INVALID_JSON; text is 400; 1 MiB is 413; never 5xx", async () => {
    const notJson = await t.request("/api/auth/sign-up/email", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).code).toBe("INVALID_JSON");
    const text = await t.request("/api/auth/sign-up/email", { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(text.status).toBe(400);
    const huge = "x".repeat(1024 * 1024);
    const big = await t.request("/api/auth/sign-up/email", jsonPost({ email: "big@example.com", password: huge, name: "A" }));
    expect(big.status).toBe(413);
    expect(((await big.json()) as any).code).toBe("PAYLOAD_TOO_LARGE");
    const empty = await t.request("/api/auth/sign-up/email", { method: "POST", headers: { "content-type": "application/json" } });
    expect(empty.status).toBeGreaterThanOrEqual(400);
    expect(empty.status).toBeLessThan(500);
    expect(t.errors).toEqual([]);
  });

  test("20 concurrent sign-ups with one e-mail: exactly one 200, the rest 422", async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signUp({ email: "race@example.com", password: `password-${i}`, name: `R${i}` })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
  });
});

describe("sign-in", () => {
  beforeAll(async () => {
    await signUp({ email: "bob@example.com", password: "bobs password", name: "Bob" });
  });

  test("right password: 200 {redirect:false, token, user} and a cookie", async () => {
    const response = await signIn({ email: "BOB@example.com", password: "bobs password" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body).toEqual({ redirect: false, token: expect.any(String), user: expect.objectContaining({ email: "bob@example.com" }) });
    expect(body).not.toHaveProperty("url");
    expect(response.headers.get("set-cookie")).toContain("Max-Age=604800");
  });

  test("rememberMe: false gives a browser-session cookie (no Max-Age)", async () => {
    const response = await signIn({ email: "bob@example.com", password: "bobs password", rememberMe: false });
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).not.toContain("Max-Age");
    expect(setCookie).not.toContain("Expires");
  });

  test("wrong password and unknown e-mail give identical 401 responses", async () => {
    const wrong = await snapshot(await signIn({ email: "bob@example.com", password: "not bobs password" }));
    const unknown = await snapshot(await signIn({ email: "nobody@example.com", password: "not bobs password" }));
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(unknown).toEqual(wrong);
  });

  test("an account made by `keys create` has no password and cannot sign in", async () => {
    await t.issueKey("cli-only@example.com");
    const response = await signIn({ email: "cli-only@example.com", password: "anything at all" });
    expect(response.status).toBe(401);
  });

  test("the stored password is an argon2id hash with at least OWASP's parameters", async () => {
    const [row] = await t.state.rows<{ password_hash: string }>("SELECT password_hash FROM users WHERE email = ?", "bob@example.com");
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.password_hash).not.toContain("bobs password");
  });
});

describe("sessions", () => {
  test("sign-out deletes the session server-side and clears the cookie with the same attributes", async () => {
    const signedUp = await signUp({ email: "carol@example.com", password: "carols password", name: "Carol" });
    const cookie = sessionCookie(signedUp);
    const before = await t.state.count("sessions");
    const out = await t.request("/api/auth/sign-out", jsonPost({}, { cookie }));
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ success: true });
    const cleared = out.headers.get("set-cookie")!;
    expect(cleared).toContain("foodapi.session_token=;");
    expect(cleared).toContain("Max-Age=0");
    expect(cleared).toContain("HttpOnly");
    expect(cleared).toContain("SameSite=Lax");
    expect(await t.state.count("sessions")).toBe(before - 1);
    // The old cookie, replayed, is worth nothing.
    const session = await t.request("/api/auth/get-session", { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(await session.text()).toBe("null");
    expect((await t.request("/v1/keys", { headers: { cookie } })).status).toBe(401);
  });

  test("get-session without a cookie or with a garbage one is 200 null", async () => {
    for (const headers of [{}, { cookie: "foodapi.session_token=garbage" }, { cookie: "foodapi.session_token=" }] as Record<string, string>[]) {
      const response = await t.request("/api/auth/get-session", { headers });
      expect(response.status).toBe(200);
      expect(await response.json()).toBeNull();
    }
  });

  test(`an account keeps at most ${MAX_SESSIONS_PER_ACCOUNT} sessions: one sign-in more ends the oldest`, async () => {
    const first = sessionCookie(await signUp({ email: "many@example.com", password: "many password", name: "Many" }));
    const signedIn: string[] = [];
    // A few at a time: each is an argon2 verification.
    for (let i = 0; i < MAX_SESSIONS_PER_ACCOUNT; i += 5) {
      const batch = await Promise.all(Array.from({ length: 5 }, () => signIn({ email: "many@example.com", password: "many password" })));
      for (const response of batch) {
        expect(response.status).toBe(200);
        signedIn.push(sessionCookie(response));
      }
    }
    expect(await (await t.request("/api/auth/get-session", { headers: { cookie: first } })).json()).toBeNull();
    const newest = signedIn.at(-1)!;
    const listed = (await (await t.request("/api/auth/list-sessions", { headers: { cookie: newest } })).json()) as any[];
    expect(listed).toHaveLength(MAX_SESSIONS_PER_ACCOUNT);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    for (const cookie of [signedIn[0]!, newest]) expect((await t.request("/v1/keys", { headers: { cookie } })).status).toBe(200);
    expect(readFileSync(join(ROOT, "docs/api.md"), "utf8")).toContain(`keeps at most ${MAX_SESSIONS_PER_ACCOUNT} sessions`);
  });

  test("the database holds no session token and no plaintext key", async () => {
    const signedUp = await signUp({ email: "dora@example.com", password: "doras password", name: "Dora" });
    const { token } = (await signedUp.json()) as { token: string };
    const issued = await t.request("/v1/keys", jsonPost({ name: "k" }, { cookie: sessionCookie(signedUp) }));
    const { key } = (await issued.json()) as { key: string };
    // The SQLite files byte for byte (WAL included); PostgreSQL's rows and Redis's keys and values.
    const stored = await t.state.storedText();
    for (const secret of [token, key, "doras password"]) expect(stored.includes(secret)).toBe(false);
    expect(stored.includes(new Bun.CryptoHasher("sha256").update(token).digest("hex"))).toBe(true);
  });
});

describe("session lifetime (clock injected)", () => {
  test("expires after 7 days unused; use after more than a day extends it", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const app = await createTestApp({ clock: () => now, env: { FOODAPI_AUTH_LIMIT: "1000/1m" } });
    try {
      const cookie = sessionCookie(await app.request("/api/auth/sign-up/email", jsonPost({ email: "e@example.com", password: "password1", name: "E" })));
      const session = async () => (await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as any;
      now += 2 * 86400_000;
      const extended = await app.request("/api/auth/get-session", { headers: { cookie } });
      expect(((await extended.json()) as any).session.expiresAt).toBe(new Date(now + 7 * 86400_000).toISOString());
      expect(extended.headers.get("set-cookie")).toContain("Max-Age=604800");
      now += 6 * 86400_000; // 8 days after sign-up, 6 after the extension: still valid
      expect(await session()).not.toBeNull();
      now += 7 * 86400_000 + 1;
      expect(await session()).toBeNull();
      expect((await app.request("/v1/keys", { headers: { cookie } })).status).toBe(401);
    } finally {
      await app.close();
    }
  });

  test("with an https base URL the cookie is Secure", async () => {
    const app = await createTestApp({ env: { FOODAPI_BASE_URL: "https://food.example.com", FOODAPI_AUTH_LIMIT: "1000/1m" } });
    try {
      const response = await app.request("/api/auth/sign-up/email", jsonPost({ email: "s@example.com", password: "password1", name: "S" }));
      expect(response.headers.get("set-cookie")).toContain("Secure");
    } finally {
      await app.close();
    }
  });
});

describe("per-IP limits on sign-in and sign-up", () => {
  test("the 11th sign-in in a minute from one IP is 429 with Retry-After; another IP and the other route are not limited", async () => {
    const app = await createTestApp();
    try {
      // A fresh e-mail each time: the per-account limit (test/accounts/self-service.test.ts) stays out of the way.
      let emails = 0;
      const attempt = (ip: string) => app.request("/api/auth/sign-in/email", jsonPost({ email: `x${++emails}@example.com`, password: "whatever1" }, { "cf-connecting-ip": ip }));
      for (let i = 0; i < 10; i++) expect((await attempt("203.0.113.7")).status).toBe(401);
      const limited = await attempt("203.0.113.7");
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ code: "TOO_MANY_REQUESTS", message: expect.any(String) });
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(61); // a window of 60 one-second slots, plus the current one
      expect((await attempt("203.0.113.8")).status).toBe(401);
      const signUpSameIp = await app.request("/api/auth/sign-up/email", jsonPost({ email: "y@example.com", password: "password1", name: "Y" }, { "cf-connecting-ip": "203.0.113.7" }));
      expect(signUpSameIp.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  test("IPv6 clients are counted per /64", async () => {
    const app = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "2/1m" } });
    try {
      const attempt = (ip: string) => app.request("/api/auth/sign-in/email", jsonPost({ email: "x@example.com", password: "whatever1" }, { "cf-connecting-ip": ip }));
      expect((await attempt("2001:db8:1:2::1")).status).toBe(401);
      expect((await attempt("2001:db8:1:2:ffff::9")).status).toBe(401);
      expect((await attempt("2001:0db8:0001:0002::abcd")).status).toBe(429);
      expect((await attempt("2001:db8:1:3::1")).status).toBe(401);
    } finally {
      await app.close();
    }
  });
});
