import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setAccountPassword } from "../../src/accounts/admin";
import { jsonPost, sessionCookie } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * A session belongs to the credential it was verified against: sign-ins racing a password change or the
 * account's deletion, and key issues racing the deletion, through the app's HTTP interface on the test
 * backend (SQLite, or PostgreSQL + Redis with FOODAPI_TEST_BACKEND=postgres+redis).
 *
 * The races are made overwhelmingly likely, not left to chance: while the change (or the deletion) runs,
 * IN_FLIGHT sign-ins are always under way, a new one starting as soon as one answers. Each reads the
 * account first and then spends an argon2 verification, so when the change commits, those under way have
 * read the account before it and store their session after it: the race, a few times a round, three
 * rounds. Every loop is bounded in count and time.
 */
let t: TestApp;
beforeAll(async () => {
  // Sign-ins that read the account after the change or the deletion are wrong passwords: up to MAX_STARTED
  // of them on a slow run, past the default 10 per account, which would turn the later ones into 429s.
  t = await createTestApp({
    env: { FOODAPI_AUTH_LIMIT: "100000/1m", FOODAPI_PASSWORD_FAILURE_LIMIT: "100000/15m", FOODAPI_KEY_ISSUE_LIMIT: "100000/1h" },
  });
});
afterAll(() => t.close());

const OLD = "the old password";
const NEW = "the new password";
const IN_FLIGHT = 6;
const MAX_STARTED = 200;
const STARTED_WITHIN_MS = 15_000;

const signUp = async (email: string) => sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email, password: OLD, name: "Racer" })));
const signIn = (email: string, password = OLD) => t.request("/api/auth/sign-in/email", jsonPost({ email, password }));
const getSession = async (cookie: string) => (await t.request("/api/auth/get-session", { headers: { cookie } })).json() as Promise<any>;

/**
 * Keeps IN_FLIGHT calls of `next()` running while `main` runs, a new one as soon as one answers, at most
 * MAX_STARTED in all. More at once would only queue behind each other's argon2 work, and `main`'s with them.
 */
async function whileRunning<T>(main: Promise<Response>, next: (i: number) => Promise<T>): Promise<{ main: Response; started: T[] }> {
  let done = false;
  const finished = main.finally(() => (done = true));
  const started: Promise<T>[] = [];
  const running = new Set<Promise<unknown>>();
  const until = Date.now() + STARTED_WITHIN_MS;
  while (!done && started.length < MAX_STARTED && Date.now() < until) {
    if (running.size >= IN_FLIGHT) {
      await Promise.race([...running, finished]);
      continue;
    }
    const call = next(started.length);
    started.push(call);
    const settled: Promise<unknown> = call.then(
      () => running.delete(settled),
      () => running.delete(settled),
    );
    running.add(settled);
    await Bun.sleep(1);
  }
  return { main: await finished, started: await Promise.all(started) };
}

/** One of the allowed statuses, an error in the error shape with one of the allowed codes (never a 5xx); the body. */
async function expectAnswer(response: Response, allowed: number[], codes: string[]): Promise<any> {
  expect(allowed).toContain(response.status);
  const body = (await response.json()) as any;
  if (response.status >= 400) {
    expect(body).toEqual({ code: expect.any(String), message: expect.any(String) });
    expect(codes).toContain(body.code);
  }
  return body;
}

describe("sign-ins with the old password racing change-password with revokeOtherSessions", () => {
  test("no session a sign-in started survives the change: every 200's token is signed out once it returned", async () => {
    for (let round = 0; round < 3; round++) {
      const email = `change-${round}@example.com`;
      const cookie = await signUp(email);
      const change = t.request("/api/auth/change-password", jsonPost({ currentPassword: OLD, newPassword: NEW, revokeOtherSessions: true }, { cookie }));
      const { main, started } = await whileRunning(change, () => signIn(email));
      expect(main.status).toBe(200);
      const fresh = sessionCookie(main);
      const tokens: string[] = [];
      for (const response of started) {
        const body = await expectAnswer(response, [200, 401], ["INVALID_EMAIL_OR_PASSWORD"]);
        if (response.status === 200) tokens.push(body.token);
      }
      for (const token of tokens) expect(await getSession(`foodapi.session_token=${token}`)).toBeNull();
      // Only the session change-password started is left.
      const listed = (await (await t.request("/api/auth/list-sessions", { headers: { cookie: fresh } })).json()) as any[];
      expect(listed.map((s) => s.current)).toEqual([true]);
      expect((await signIn(email, OLD)).status).toBe(401);
      expect((await signIn(email, NEW)).status).toBe(200);
    }
  }, 120_000);
});

describe("sign-ins and key issues racing delete-user", () => {
  test("each answers 200/201 or 401 in the error shape, never a 5xx; nothing of the account is left", async () => {
    for (let round = 0; round < 3; round++) {
      const email = `delete-${round}@example.com`;
      const cookie = await signUp(email);
      const keyCookie = sessionCookie(await signIn(email));
      const userId = ((await getSession(cookie)) as any).user.id as string;
      const deletion = t.request("/api/auth/delete-user", jsonPost({ password: OLD }, { cookie }));
      const { main, started } = await whileRunning(deletion, (i) => (i % 2 === 0 ? signIn(email) : t.request("/v1/keys", jsonPost({ name: `k${i}` }, { cookie: keyCookie }))));
      expect(main.status).toBe(200);
      for (const [i, response] of started.entries()) {
        if (i % 2 === 0) await expectAnswer(response, [200, 401], ["INVALID_EMAIL_OR_PASSWORD"]);
        else await expectAnswer(response, [201, 401, 409], ["UNAUTHORIZED", "KEY_LIMIT_REACHED"]);
      }
      expect(await t.state.rows("SELECT id FROM sessions WHERE user_id = ?", userId)).toEqual([]);
      expect(await t.state.rows("SELECT id FROM api_keys WHERE user_id = ?", userId)).toEqual([]);
      expect(await t.state.rows("SELECT id FROM users WHERE id = ?", userId)).toEqual([]);
    }
  }, 120_000);
});

/**
 * The operator's `users set-password` committing between a self-service route's password check and its
 * write, forced: the app's account store runs the reset just before the route's write reaches it.
 */
describe("the operator's password reset between change-password's (or delete-user's) check and its write", () => {
  const OPERATOR = "the operator's password";
  async function appResettingBefore(write: "changePassword" | "delete") {
    let reset: (() => Promise<unknown>) | undefined;
    const app = await createTestApp({
      env: { FOODAPI_AUTH_LIMIT: "100000/1m" },
      stores: (backend) => ({
        ...backend,
        accounts: {
          ...backend.accounts,
          [write]: async (...args: unknown[]) => {
            const before = reset;
            reset = undefined;
            await before?.();
            return (backend.accounts[write] as (...a: unknown[]) => unknown)(...args);
          },
        },
      }),
    });
    const cookie = sessionCookie(await app.request("/api/auth/sign-up/email", jsonPost({ email: "reset@example.com", password: OLD, name: "Owner" })));
    const owner = (await app.stores.accounts.findByEmail("reset@example.com"))!;
    reset = () => setAccountPassword({ accounts: app.stores.accounts, limits: app.stores.limits }, owner, OPERATOR, Date.now());
    const signIn = async (password: string) => (await app.request("/api/auth/sign-in/email", jsonPost({ email: "reset@example.com", password }))).status;
    return { app, cookie, owner, signIn };
  }

  test("change-password: 400 INVALID_PASSWORD, and the operator's password is the account's", async () => {
    const { app, cookie, signIn } = await appResettingBefore("changePassword");
    try {
      const response = await app.request("/api/auth/change-password", jsonPost({ currentPassword: OLD, newPassword: NEW, revokeOtherSessions: true }, { cookie }));
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).code).toBe("INVALID_PASSWORD");
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(await signIn(NEW)).toBe(401);
      expect(await signIn(OLD)).toBe(401);
      expect(await signIn(OPERATOR)).toBe(200);
    } finally {
      await app.close();
    }
  });

  test("delete-user: 400 INVALID_PASSWORD, and the account, its keys and the operator's password stay", async () => {
    const { app, cookie, owner, signIn } = await appResettingBefore("delete");
    try {
      const { key } = await app.issueKey("reset@example.com");
      const response = await app.request("/api/auth/delete-user", jsonPost({ password: OLD }, { cookie }));
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).code).toBe("INVALID_PASSWORD");
      expect((await app.stores.accounts.findById(owner.id))?.email).toBe("reset@example.com");
      expect((await app.request("/v1/food-groups", { headers: { "x-api-key": key } })).status).toBe(200);
      expect(await signIn(OPERATOR)).toBe(200);
    } finally {
      await app.close();
    }
  });
});
