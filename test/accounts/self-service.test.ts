import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseRateSpec } from "../../src/platform/config/config";
import { SETTINGS } from "../../src/platform/config/settings";
import { jsonPost, sessionCookie, snapshot } from "../helpers/http";
import { createTestApp, documentOf, type TestApp } from "../helpers/test-app";

/**
 * Account self-service (design §13) through the app's HTTP interface, on the test backend (SQLite, or
 * PostgreSQL + Redis with FOODAPI_TEST_BACKEND=postgres+redis). Every request from a client IP of its
 * own where the per-IP sign-in limit could interfere.
 */
let t: TestApp;
/** Attempts per client IP and route (the app's --auth-limit, per minute). */
const AUTH_ATTEMPTS = 5;
/** Wrong passwords per account: the default --password-failure-limit, which the app runs with. */
const PASSWORD_FAILURES = parseRateSpec(SETTINGS.passwordFailureLimit.default, "--password-failure-limit").limit;
beforeAll(async () => {
  t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: `${AUTH_ATTEMPTS}/1m`, FOODAPI_TRUSTED_ORIGINS: "https://dash.example.com" } });
});
afterAll(() => t.close());

let ips = 0;
/** A client of its own: an IP (the edge header) and a User-Agent. */
const client = (agent = "test-browser/1.0") => ({ "cf-connecting-ip": `198.51.100.${++ips}`, "user-agent": agent });

async function signUp(email: string, password = "first password", headers = client()) {
  const response = await t.request("/api/auth/sign-up/email", jsonPost({ email, password, name: "Self" }, headers));
  expect(response.status).toBe(200);
  const body = (await response.json()) as any;
  return { cookie: sessionCookie(response), user: body.user, headers };
}
async function signIn(email: string, password: string, headers = client()) {
  return t.request("/api/auth/sign-in/email", jsonPost({ email, password }, headers));
}
const getSession = async (cookie: string) => (await t.request("/api/auth/get-session", { headers: { cookie } })).json() as Promise<any>;
const post = (path: string, body: unknown, headers: Record<string, string>) => t.request(`/api/auth/${path}`, jsonPost(body, headers));
const listSessions = async (cookie: string) => (await (await t.request("/api/auth/list-sessions", { headers: { cookie } })).json()) as any[];

describe("change-password", () => {
  test("without revokeOtherSessions: token null, every session stays; the old password fails, the new one signs in", async () => {
    const { cookie, headers } = await signUp("keep@example.com");
    const other = sessionCookie(await signIn("keep@example.com", "first password"));
    const response = await post("change-password", { currentPassword: "first password", newPassword: "second password" }, { cookie, ...headers });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("set-cookie")).toBeNull();
    const body = (await response.json()) as any;
    expect(body).toEqual({ token: null, user: expect.objectContaining({ email: "keep@example.com", name: "Self" }) });
    expect(Object.keys(body.user).sort()).toEqual(["createdAt", "email", "emailVerified", "id", "image", "name", "updatedAt"]);
    expect((await getSession(cookie))?.user.email).toBe("keep@example.com");
    expect((await getSession(other))?.user.email).toBe("keep@example.com");
    expect((await signIn("keep@example.com", "first password")).status).toBe(401);
    expect((await signIn("keep@example.com", "second password")).status).toBe(200);
  });

  test("with revokeOtherSessions: the second browser is signed out, the caller's fresh cookie (and token) works, its old one not", async () => {
    const { cookie, headers } = await signUp("rotate@example.com");
    const secondBrowser = sessionCookie(await signIn("rotate@example.com", "first password"));
    expect((await getSession(secondBrowser))?.user.email).toBe("rotate@example.com");
    const response = await post(
      "change-password",
      { currentPassword: "first password", newPassword: "rotated password", revokeOtherSessions: true },
      { cookie, ...headers },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    const fresh = sessionCookie(response);
    expect(body.token).toEqual(expect.any(String));
    expect(fresh).toBe(`foodapi.session_token=${body.token}`);
    expect(response.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    expect(await getSession(secondBrowser)).toBeNull();
    expect((await t.request("/api/auth/list-sessions", { headers: { cookie: secondBrowser } })).status).toBe(401);
    expect(await getSession(cookie)).toBeNull();
    expect((await getSession(fresh))?.user.email).toBe("rotate@example.com");
    expect((await listSessions(fresh)).map((s) => s.current)).toEqual([true]);
    expect((await signIn("rotate@example.com", "first password")).status).toBe(401);
    expect((await signIn("rotate@example.com", "rotated password")).status).toBe(200);
  });

  test("a wrong current password is 400 INVALID_PASSWORD; a new one breaking the sign-up rules is their error; nothing changes", async () => {
    const { cookie, headers } = await signUp("wrong@example.com");
    const wrong = await post("change-password", { currentPassword: "not it at all", newPassword: "second password" }, { cookie, ...headers });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: "INVALID_PASSWORD", message: expect.any(String) });
    const short = await post("change-password", { currentPassword: "first password", newPassword: "short" }, { cookie, ...headers });
    expect(((await short.json()) as any).code).toBe("PASSWORD_TOO_SHORT");
    const long = await post("change-password", { currentPassword: "first password", newPassword: "x".repeat(129) }, { cookie, ...headers });
    expect(((await long.json()) as any).code).toBe("PASSWORD_TOO_LONG");
    expect((await signIn("wrong@example.com", "first password")).status).toBe(200);
  });

  test("counted against the per-IP sign-in limit: past it, 429 TOO_MANY_REQUESTS with Retry-After", async () => {
    const { cookie, headers } = await signUp("limited@example.com");
    const attempt = () => post("change-password", { currentPassword: "not it at all", newPassword: "second password" }, { cookie, ...headers });
    for (let i = 0; i < AUTH_ATTEMPTS; i++) expect((await attempt()).status).toBe(400);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).code).toBe("TOO_MANY_REQUESTS");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client IP has its own count.
    expect((await post("change-password", { currentPassword: "not it at all", newPassword: "second password" }, { cookie, ...client() })).status).toBe(400);
  });
});

describe("update-user", () => {
  test("changes the name (trimmed, NFC): 200 {status: true}, and the session shows it", async () => {
    const { cookie } = await signUp("rename@example.com");
    const response = await post("update-user", { name: "  Cafe\u0301 Owner " }, { cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: true });
    expect((await getSession(cookie)).user.name).toBe("Caf\u00e9 Owner");
  });

  test("a body with email: 400 EMAIL_CAN_NOT_BE_UPDATED, and nothing changes; a bad name: 400 naming the field", async () => {
    const { cookie } = await signUp("fixed@example.com");
    const withEmail = await post("update-user", { name: "New", email: "other@example.com" }, { cookie });
    expect(withEmail.status).toBe(400);
    expect(((await withEmail.json()) as any).code).toBe("EMAIL_CAN_NOT_BE_UPDATED");
    expect(((await (await post("update-user", { email: "other@example.com" }, { cookie })).json()) as any).code).toBe("EMAIL_CAN_NOT_BE_UPDATED");
    for (const body of [{ name: "" }, { name: "   " }, { name: "x".repeat(101) }, { name: "a\u202Eb" }, { name: 7 }, {}]) {
      const response = await post("update-user", body, { cookie });
      expect(response.status).toBe(400);
      const error = (await response.json()) as any;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.message).toContain("name");
    }
    expect((await getSession(cookie)).user).toMatchObject({ email: "fixed@example.com", name: "Self" });
  });
});

describe("sessions", () => {
  test("list-sessions: newest first, with the client IP (IPv6 as its /64) and User-Agent at sign-in, the caller's marked current", async () => {
    const first = await signUp("list@example.com", "first password", { "cf-connecting-ip": "203.0.113.77", "user-agent": "Firefox/133.0" });
    const second = sessionCookie(await signIn("list@example.com", "first password", { "cf-connecting-ip": "2001:db8:aa:bb:1:2:3:4", "user-agent": "Safari/18" }));
    const listed = await listSessions(first.cookie);
    expect(listed).toHaveLength(2);
    for (const item of listed) {
      expect(Object.keys(item).sort()).toEqual(["createdAt", "current", "expiresAt", "id", "ipAddress", "updatedAt", "userAgent"]);
    }
    expect(listed.map((s) => [s.ipAddress, s.userAgent, s.current])).toEqual([
      ["2001:db8:aa:bb::/64", "Safari/18", false],
      ["203.0.113.77", "Firefox/133.0", true],
    ]);
    expect((await listSessions(second)).map((s) => s.current)).toEqual([true, false]);
    expect(JSON.stringify(listed)).not.toContain(first.cookie.split("=")[1]!);
  });

  test("revoke-session by id ends that session only; another account's or an unknown id: 404 SESSION_NOT_FOUND", async () => {
    const mine = await signUp("revoke@example.com");
    const laptop = sessionCookie(await signIn("revoke@example.com", "first password"));
    const stranger = await signUp("stranger@example.com");
    const laptopId = (await listSessions(laptop)).find((s) => s.current).id;
    const strangersId = (await listSessions(stranger.cookie))[0].id;

    for (const id of [strangersId, "ses_unknown", "nul\u0000id"]) {
      const response = await post("revoke-session", { id }, { cookie: mine.cookie });
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).code).toBe("SESSION_NOT_FOUND");
    }
    expect((await getSession(stranger.cookie))?.user.email).toBe("stranger@example.com");

    const response = await post("revoke-session", { id: laptopId }, { cookie: mine.cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: true });
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await getSession(laptop)).toBeNull();
    expect((await getSession(mine.cookie))?.user.email).toBe("revoke@example.com");
    expect((await post("revoke-session", { id: laptopId }, { cookie: mine.cookie })).status).toBe(404);
  });

  test("revoke-session takes Better Auth's field name `token` for the id; revoking the caller's own session clears its cookie", async () => {
    const { cookie } = await signUp("own@example.com");
    const ownId = (await listSessions(cookie))[0].id;
    const response = await post("revoke-session", { token: ownId }, { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toMatch(/foodapi\.session_token=;.*Max-Age=0/i);
    expect(await getSession(cookie)).toBeNull();
  });

  test("revoke-other-sessions ends every other session of the account, not the caller's nor another account's", async () => {
    const { cookie } = await signUp("others@example.com");
    const a = sessionCookie(await signIn("others@example.com", "first password"));
    const b = sessionCookie(await signIn("others@example.com", "first password"));
    const stranger = await signUp("bystander@example.com");
    const response = await t.request("/api/auth/revoke-other-sessions", { method: "POST", headers: { cookie } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: true });
    expect(await getSession(a)).toBeNull();
    expect(await getSession(b)).toBeNull();
    expect((await listSessions(cookie)).map((s) => s.current)).toEqual([true]);
    expect((await getSession(stranger.cookie))?.user.email).toBe("bystander@example.com");
  });
});

describe("PATCH /v1/keys/{id}", () => {
  test("renames: 200 the listed record (never the plaintext); another account's, unknown or revoked: 404 KEY_NOT_FOUND", async () => {
    const { cookie } = await signUp("keyname@example.com");
    const issued = (await (await t.request("/v1/keys", jsonPost({ name: "old" }, { cookie }))).json()) as any;
    const response = await t.request(`/v1/keys/${issued.id}`, { method: "PATCH", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ name: " new name " }) });
    expect(response.status).toBe(200);
    const renamed = (await response.json()) as any;
    expect(renamed).toEqual({ id: issued.id, name: "new name", keyPrefix: issued.keyPrefix, tier: "free", createdAt: issued.createdAt, lastUsedAt: null });
    const listed = ((await (await t.request("/v1/keys", { headers: { cookie } })).json()) as any).items;
    expect(listed).toEqual([renamed]);

    const stranger = await signUp("keythief@example.com");
    const patch = (who: string, id: string, name = "mine now") =>
      t.request(`/v1/keys/${id}`, { method: "PATCH", headers: { cookie: who, "content-type": "application/json" }, body: JSON.stringify({ name }) });
    for (const attempt of [await patch(stranger.cookie, issued.id), await patch(cookie, "key_unknown")]) {
      expect(attempt.status).toBe(404);
      expect(((await attempt.json()) as any).code).toBe("KEY_NOT_FOUND");
    }
    expect((await t.request(`/v1/keys/${issued.id}`, { method: "DELETE", headers: { cookie } })).status).toBe(204);
    expect((await patch(cookie, issued.id)).status).toBe(404);
    const bad = await patch(cookie, issued.id, "");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).message).toContain("name");
  });
});

describe("delete-user", () => {
  test("a wrong password: 400 INVALID_PASSWORD and nothing is deleted", async () => {
    const { cookie } = await signUp("notyet@example.com");
    const response = await post("delete-user", { password: "not the password" }, { cookie });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).code).toBe("INVALID_PASSWORD");
    expect((await getSession(cookie))?.user.email).toBe("notyet@example.com");
  });

  test("counted against the per-IP sign-in limit: past it, 429 TOO_MANY_REQUESTS with Retry-After, the right password too", async () => {
    const { cookie, headers } = await signUp("hammer@example.com");
    const attempt = (password: string) => post("delete-user", { password }, { cookie, ...headers });
    for (let i = 0; i < AUTH_ATTEMPTS; i++) expect((await attempt("not the password")).status).toBe(400);
    for (const password of ["not the password", "first password"]) {
      const refused = await attempt(password);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as any).code).toBe("TOO_MANY_REQUESTS");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await getSession(cookie))?.user.email).toBe("hammer@example.com");
  });

  test("deletes the account, its sessions, keys and usage at once: cookie cleared, keys 401, e-mail free, no row of it left", async () => {
    const { cookie, user } = await signUp("leaving@example.com");
    const elsewhere = sessionCookie(await signIn("leaving@example.com", "first password"));
    const keys = [];
    for (const name of ["one", "two"]) keys.push((await (await t.request("/v1/keys", jsonPost({ name }, { cookie }))).json()) as any);
    const revoked = (await (await t.request("/v1/keys", jsonPost({ name: "revoked" }, { cookie }))).json()) as any;
    await t.request(`/v1/keys/${revoked.id}`, { method: "DELETE", headers: { cookie } });
    for (const key of keys) expect((await t.request("/v1/food-groups", { headers: { "x-api-key": key.key } })).status).toBe(200);
    await t.app.usage.flush();
    expect(await t.state.count("key_usage")).toBeGreaterThan(0);
    const sessionIds = (await listSessions(cookie)).map((s) => s.id);

    const response = await post("delete-user", { password: "first password" }, { cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: "User deleted" });
    expect(response.headers.get("set-cookie")).toMatch(/foodapi\.session_token=;.*Max-Age=0/i);
    for (const key of keys) {
      const refused = await t.request("/v1/food-groups", { headers: { "x-api-key": key.key } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ code: "UNAUTHORIZED", message: "A valid API key or trial token is required." });
    }
    expect(await getSession(cookie)).toBeNull();
    expect(await getSession(elsewhere)).toBeNull();
    await t.app.usage.flush();

    const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");
    const traces = [user.id, "leaving@example.com", ...sessionIds, ...[...keys, revoked].flatMap((k) => [k.id, k.keyPrefix, sha256(k.key)])];
    const stored = await storedRows();
    for (const trace of traces) expect(stored).not.toContain(trace);

    const again = await t.request("/api/auth/sign-up/email", jsonPost({ email: "leaving@example.com", password: "another password", name: "Back" }, client()));
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).user.id).not.toBe(user.id);
  });
});

describe("wrong passwords per account", () => {
  const wrongSignIn = (email: string) => () => signIn(email, "not the password");
  const wrongChange = (cookie: string) => () => post("change-password", { currentPassword: "not the password", newPassword: "second password" }, { cookie, ...client() });
  const wrongDelete = (cookie: string) => () => post("delete-user", { password: "not the password" }, { cookie, ...client() });
  async function expectRefused(response: Response) {
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ code: "TOO_MANY_REQUESTS", message: "Too many wrong passwords for this account. Try again later." });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  }

  const rightChange = (cookie: string) => post("change-password", { currentPassword: "first password", newPassword: "first password" }, { cookie, ...client() });

  test("sign-in past the limit, from any client IP: 429 with Retry-After, the right password too; the signed-in owner still changes the password", async () => {
    const { cookie } = await signUp("target@example.com");
    // Every attempt from a client IP of its own (client()): the per-IP limit never applies.
    for (let i = 0; i < PASSWORD_FAILURES; i++) expect((await wrongSignIn("target@example.com")()).status).toBe(401);
    await expectRefused(await wrongSignIn("target@example.com")());
    await expectRefused(await signIn("target@example.com", "first password"));
    // Anonymous wrong sign-ins do not reach the routes behind the owner's session.
    expect((await wrongDelete(cookie)()).status).toBe(400);
    const changed = await post("change-password", { currentPassword: "first password", newPassword: "second password" }, { cookie, ...client() });
    expect(changed.status).toBe(200);
    // Another account is not affected.
    await signUp("unaffected@example.com");
    expect((await signIn("unaffected@example.com", "first password")).status).toBe(200);
  });

  test("change-password and delete-user past the limit, together, from any client IP and session: 429, the right password too; sign-in is not affected", async () => {
    const { cookie } = await signUp("stolen@example.com");
    const owner = sessionCookie(await signIn("stolen@example.com", "first password"));
    // A stolen session guessing: its count is the account's, so another session of it is limited too.
    const wrong = [wrongChange(cookie), wrongDelete(cookie)];
    for (let i = 0; i < PASSWORD_FAILURES; i++) expect((await wrong[i % wrong.length]!()).status).toBe(400);
    for (const attempt of [...wrong, wrongChange(owner)]) await expectRefused(await attempt());
    await expectRefused(await post("delete-user", { password: "first password" }, { cookie: owner, ...client() }));
    // Nothing happened to the account, and its owner still signs in.
    expect((await getSession(cookie))?.user.email).toBe("stolen@example.com");
    expect((await signIn("stolen@example.com", "first password")).status).toBe(200);
    expect((await signIn("stolen@example.com", "not the password")).status).toBe(401);
  });

  test("only wrong passwords count: right ones in between leave each allowance as it was", async () => {
    const { cookie } = await signUp("typos@example.com");
    for (let i = 0; i < PASSWORD_FAILURES - 1; i++) expect((await wrongSignIn("typos@example.com")()).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await signIn("typos@example.com", "first password")).status).toBe(200);
    expect((await wrongSignIn("typos@example.com")()).status).toBe(401);
    await expectRefused(await wrongSignIn("typos@example.com")());
    for (let i = 0; i < PASSWORD_FAILURES - 1; i++) expect((await wrongDelete(cookie)()).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await rightChange(cookie)).status).toBe(200);
    expect((await wrongChange(cookie)()).status).toBe(400);
    await expectRefused(await wrongDelete(cookie)());
  });

  test("an unknown e-mail is counted the same way, so the limit does not tell which e-mails have an account", async () => {
    await signUp("exists@example.com");
    const answers = async (email: string) => {
      const seen = [];
      for (let i = 0; i <= PASSWORD_FAILURES; i++) {
        const { status, body, headers } = await snapshot(await wrongSignIn(email)());
        // Retry-After counts down from each account's own first failure: its name only.
        seen.push({ status, body, headers: headers.map(([name, value]) => [name, name === "retry-after" ? "<seconds>" : value]) });
      }
      return seen;
    };
    const known = await answers("exists@example.com");
    expect(known.map((answer) => answer.status)).toEqual([...Array(PASSWORD_FAILURES).fill(401), 429]);
    expect(await answers("nobody-here@example.com")).toEqual(known);
  });
});

describe("account answers", () => {
  test("every answer about an account is Cache-Control: no-store, on every route that takes a session", async () => {
    const { cookie } = await signUp("cached@example.com");
    const other = sessionCookie(await signIn("cached@example.com", "first password"));
    const otherId = (await listSessions(other)).find((s) => s.current).id;
    const issued = await t.request("/v1/keys", jsonPost({ name: "k" }, { cookie }));
    const keyId = ((await issued.clone().json()) as any).id;
    const answers: [string, Response][] = [
      ["GET /api/auth/get-session", await t.request("/api/auth/get-session", { headers: { cookie } })],
      ["GET /api/auth/list-sessions", await t.request("/api/auth/list-sessions", { headers: { cookie } })],
      ["POST /v1/keys", issued],
      ["GET /v1/keys", await t.request("/v1/keys", { headers: { cookie } })],
      ["GET /v1/keys/{id}/usage", await t.request(`/v1/keys/${keyId}/usage`, { headers: { cookie } })],
      ["PATCH /v1/keys/{id}", await t.request(`/v1/keys/${keyId}`, { method: "PATCH", headers: { cookie, "content-type": "application/json" }, body: '{"name":"n"}' })],
      ["DELETE /v1/keys/{id}", await t.request(`/v1/keys/${keyId}`, { method: "DELETE", headers: { cookie } })],
      ["POST /api/auth/update-user", await post("update-user", { name: "Cached" }, { cookie })],
      ["POST /api/auth/change-password", await post("change-password", { currentPassword: "first password", newPassword: "first password" }, { cookie, ...client() })],
      ["POST /api/auth/revoke-session", await post("revoke-session", { id: otherId }, { cookie })],
      ["POST /api/auth/revoke-other-sessions", await post("revoke-other-sessions", {}, { cookie })],
      ["POST /api/auth/sign-out", await t.request("/api/auth/sign-out", { method: "POST", headers: { cookie: other } })],
      ["POST /api/auth/delete-user", await post("delete-user", { password: "first password" }, { cookie, ...client() })],
    ];
    for (const [what, response] of answers) expect([what, response.status < 300, response.headers.get("cache-control")]).toEqual([what, true, "no-store"]);

    // Every operation of the document that takes a session is among them: a new one must be added here.
    const sessionOperations = Object.entries(documentOf(t.app).paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => JSON.stringify(operation.security).includes("sessionCookie"))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(answers.map(([what]) => what).sort()).toEqual(expect.arrayContaining(sessionOperations.sort()));
  });
});

/**
 * Every row of every table of the state (and, with Redis, every key of this state's prefix) as text: what
 * is left of an account must not be in it.
 */
async function storedRows(): Promise<string> {
  // PostgreSQL + Redis: rows and keys, never the bytes of dead tuples. SQLite: the rows too (the file's
  // free pages may hold old bytes until they are reused; they are not rows).
  if (t.backend !== "sqlite") return t.state.storedText();
  const tables = await t.state.rows<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  const rows = [];
  for (const { name } of tables) rows.push(name, JSON.stringify(await t.state.rows(`SELECT * FROM "${name}"`)));
  return rows.join("\n");
}

/** Every self-service route, with a body that would be valid. */
const ROUTES: { method: string; path: string; body?: unknown; changes: boolean }[] = [
  { method: "POST", path: "/api/auth/change-password", body: { currentPassword: "first password", newPassword: "second password" }, changes: true },
  { method: "POST", path: "/api/auth/update-user", body: { name: "New" }, changes: true },
  { method: "POST", path: "/api/auth/delete-user", body: { password: "first password" }, changes: true },
  { method: "GET", path: "/api/auth/list-sessions", changes: false },
  { method: "POST", path: "/api/auth/revoke-session", body: { id: "ses_x" }, changes: true },
  { method: "POST", path: "/api/auth/revoke-other-sessions", body: {}, changes: true },
  { method: "PATCH", path: "/v1/keys/key_x", body: { name: "x" }, changes: true },
  { method: "GET", path: "/v1/keys/key_x/usage", changes: false },
];
const send = (route: (typeof ROUTES)[number], headers: Record<string, string>, body: string | undefined = route.body === undefined ? undefined : JSON.stringify(route.body)) =>
  t.request(route.path, { method: route.method, headers: body === undefined ? headers : { "content-type": "application/json", ...headers }, body });

describe("every self-service route", () => {
  test("without a valid session: 401 UNAUTHORIZED, whatever the body (even one that is not JSON)", async () => {
    for (const route of ROUTES) {
      for (const headers of [{}, { cookie: "foodapi.session_token=forged" }] as Record<string, string>[]) {
        for (const body of [undefined, "{not json", JSON.stringify({ unexpected: [1, 2] })]) {
          const response = await send(route, headers, route.method === "GET" ? undefined : body);
          expect([route.path, response.status]).toEqual([route.path, 401]);
          expect(((await response.json()) as any).code).toBe("UNAUTHORIZED");
        }
      }
    }
  });

  test("a state change from another site's page (Origin, or Referer without it): 403 INVALID_ORIGIN, and nothing changes", async () => {
    const { cookie } = await signUp("csrf@example.com");
    for (const route of ROUTES.filter((r) => r.changes)) {
      for (const foreign of [{ origin: "https://evil.example" }, { referer: "https://evil.example/page" }, { origin: "null" }] as Record<string, string>[]) {
        const response = await send(route, { cookie, ...foreign });
        expect([route.path, response.status]).toEqual([route.path, 403]);
        expect(((await response.json()) as any).code).toBe("INVALID_ORIGIN");
      }
    }
    expect((await getSession(cookie))?.user).toMatchObject({ email: "csrf@example.com", name: "Self" });
    expect((await signIn("csrf@example.com", "first password")).status).toBe(200);
    // The service's own origin and a trusted one pass.
    expect((await post("update-user", { name: "Mine" }, { cookie, origin: "http://127.0.0.1:3000" })).status).toBe(200);
    expect((await post("update-user", { name: "Trusted" }, { cookie, origin: "https://dash.example.com" })).status).toBe(200);
    expect((await getSession(cookie)).user.name).toBe("Trusted");
  });

  test("bad bodies: 400 with the error shape, naming the field", async () => {
    const { cookie } = await signUp("bodies@example.com");
    const keyId = ((await (await t.request("/v1/keys", jsonPost({ name: "k" }, { cookie }))).json()) as any).id;
    const cases: [string, string, unknown, string, string?][] = [
      ["POST", "/api/auth/change-password", { newPassword: "second password" }, "VALIDATION_ERROR", "currentPassword"],
      ["POST", "/api/auth/change-password", { currentPassword: "first password" }, "VALIDATION_ERROR", "newPassword"],
      ["POST", "/api/auth/change-password", { currentPassword: "first password", newPassword: "second password", revokeOtherSessions: "yes" }, "VALIDATION_ERROR", "revokeOtherSessions"],
      ["POST", "/api/auth/update-user", { name: ["x"] }, "VALIDATION_ERROR", "name"],
      ["POST", "/api/auth/delete-user", {}, "VALIDATION_ERROR", "password"],
      ["POST", "/api/auth/delete-user", { password: 12345678 }, "VALIDATION_ERROR", "password"],
      ["POST", "/api/auth/revoke-session", {}, "VALIDATION_ERROR", "id"],
      ["POST", "/api/auth/revoke-session", { id: 5 }, "VALIDATION_ERROR", "id"],
      ["PATCH", `/v1/keys/${keyId}`, {}, "VALIDATION_ERROR", "name"],
      ["PATCH", `/v1/keys/${keyId}`, { name: "x".repeat(65) }, "VALIDATION_ERROR", "name"],
    ];
    for (const [method, path, body, code, field] of cases) {
      const response = await t.request(path, { method, headers: { cookie, "content-type": "application/json", ...client() }, body: JSON.stringify(body) });
      const error = (await response.json()) as any;
      expect([path, response.status, error.code]).toEqual([path, 400, code]);
      expect(Object.keys(error).sort()).toEqual(["code", "message"]);
      if (field) expect(error.message).toContain(field);
    }
    for (const route of ROUTES.filter((r) => r.method !== "GET")) {
      const response = await send({ ...route, path: route.path.replace("key_x", keyId) }, { cookie, ...client() }, "{not json");
      expect([route.path, response.status, ((await response.json()) as any).code]).toEqual([route.path, 400, "INVALID_JSON"]);
    }
    const huge = await send(ROUTES[1]!, { cookie }, JSON.stringify({ name: "x".repeat(20_000) }));
    expect(huge.status).toBe(413);
    expect((await getSession(cookie))?.user.name).toBe("Self");
  });
});
