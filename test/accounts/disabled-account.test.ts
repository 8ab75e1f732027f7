import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { disableAccount, enableAccount, setAccountPassword } from "../../src/accounts/admin";
import { parseRateSpec } from "../../src/platform/config/config";
import { SETTINGS } from "../../src/platform/config/settings";
import { createActiveKeys } from "../../src/keys/active-keys";
import { jsonPost, sessionCookie } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * A disabled account over HTTP (design §10), on either backend: the operator's functions
 * (src/accounts/admin.ts, what `foodapi users` runs) used from outside the app, as another process would,
 * through the stores and the revocation signal. Every answer is held to the OpenAPI document.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "1000/1m" } });
});
afterAll(() => t.close());

/** The operator's side: its own key cache over the same state, as `foodapi users` has in its process. */
const operator = () => ({
  accounts: t.stores.accounts,
  sessions: t.stores.sessions,
  limits: t.stores.limits,
  keys: createActiveKeys({ store: t.stores.keys, revocations: t.stores.keyRevocations, clock: Date.now }),
});

const signIn = (email: string, password: string) => t.request("/api/auth/sign-in/email", jsonPost({ email, password }));
const callData = (key: string) => t.request("/v1/food-groups", { headers: { "x-api-key": key } });

describe("a disabled account", () => {
  test("its cached key gets the uniform 401 at once, its sessions end, sign-in is 403 BANNED_USER; enabling undoes it", async () => {
    const email = "banned@example.com";
    const cookie = sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "B" })));
    const issued = (await (await t.request("/v1/keys", jsonPost({ name: "k" }, { cookie }))).json()) as { key: string };
    const other = await t.issueKey("bystander@example.com");
    expect((await callData(issued.key)).status).toBe(200);

    const user = (await t.stores.accounts.findByEmail(email))!;
    const result = await disableAccount(operator(), user, Date.now());
    expect(result).toMatchObject({ sessionsEnded: 1, keysRefused: 1, user: { id: user.id, disabledAt: expect.any(Number) } });

    const refused = await callData(issued.key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await callData(other.key)).status).toBe(200);
    expect((await t.request("/v1/keys", { headers: { cookie } })).status).toBe(401);
    const banned = await signIn(email, "password123");
    expect(banned.status).toBe(403);
    expect(await banned.json()).toEqual({ code: "BANNED_USER", message: "You have been banned from this application. Contact its operator." });
    expect((await signIn(email, "wrong password")).status).toBe(401);
    // The e-mail stays taken.
    expect((await t.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "B" }))).status).toBe(422);

    await enableAccount(operator(), user, Date.now());
    expect((await callData(issued.key)).status).toBe(200);
    expect((await signIn(email, "password123")).status).toBe(200);
  });

  test("a session created while the account is disabled (a sign-in racing the disable) is refused", async () => {
    const email = "racing@example.com";
    const cookie = sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "R" })));
    const user = (await t.stores.accounts.findByEmail(email))!;
    // Marked disabled without the rest of disableAccount: the session is still there, as after a race.
    await t.stores.accounts.setDisabled(user.id, true, Date.now());
    expect((await t.request("/v1/keys", { headers: { cookie } })).status).toBe(401);
    expect(await (await t.request("/api/auth/get-session", { headers: { cookie } })).json()).toBeNull();
  });

  test("a password set by the operator ends every session and replaces the old one", async () => {
    const email = "reset@example.com";
    const cookie = sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "S" })));
    const user = (await t.stores.accounts.findByEmail(email))!;
    expect(await setAccountPassword(operator(), user, "a new password", Date.now())).toMatchObject({ sessionsEnded: 1 });
    expect((await t.request("/v1/keys", { headers: { cookie } })).status).toBe(401);
    expect((await signIn(email, "password123")).status).toBe(401);
    expect((await signIn(email, "a new password")).status).toBe(200);
  });

  test("a password set by the operator ends a lockout by wrong passwords, sign-in's and the session routes' (they were against a password that is gone)", async () => {
    const email = "locked@example.com";
    const cookie = sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "L" })));
    const user = (await t.stores.accounts.findByEmail(email))!;
    const limit = parseRateSpec(SETTINGS.passwordFailureLimit.default, "--password-failure-limit").limit;
    const change = (cookie: string, currentPassword: string) => t.request("/api/auth/change-password", jsonPost({ currentPassword, newPassword: currentPassword }, { cookie }));
    for (let i = 0; i < limit; i++) expect((await signIn(email, "wrong password")).status).toBe(401);
    for (let i = 0; i < limit; i++) expect((await change(cookie, "wrong password")).status).toBe(400);
    expect((await signIn(email, "password123")).status).toBe(429);
    expect((await change(cookie, "password123")).status).toBe(429);
    await setAccountPassword(operator(), user, "a new password", Date.now());
    const signedIn = await signIn(email, "a new password");
    expect(signedIn.status).toBe(200);
    expect((await change(sessionCookie(signedIn), "a new password")).status).toBe(200);
  });
});
