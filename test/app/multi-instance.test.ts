import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { ERRORS } from "../../src/app/error-catalog";
import { obtainTrialToken, solveToWidgetPayload } from "../helpers/altcha";
import { type RunningServer, runBinary, startServer } from "../helpers/binary";
import { jsonPost, sessionCookie } from "../helpers/http";
import { pollUntil } from "../helpers/wait";
import { postgresMissing, redisMissing, type StoreServer, startPostgres, startRedis } from "../helpers/store-servers";
import { POSTGRES_SCHEMA } from "../../src/app/state/state-schema";
import { versionsOfNewDatabase } from "../helpers/declared-schema";

/**
 * Two compiled binaries on two ports sharing one PostgreSQL and one Redis (design §11): every rule of
 * one process holds across both. Both start at the same moment on an empty database.
 */
const missing = postgresMissing() ?? redisMissing();
if (missing) console.error(`skipping the multi-instance tests: ${missing}`);

let postgres: StoreServer;
let redis: StoreServer;
let a: RunningServer;
let b: RunningServer;

const env = () => ({
  FOODAPI_STATE_URL: postgres.url,
  FOODAPI_REDIS_URL: redis.url,
  FOODAPI_FREE_LIMIT: "20/1m",
  FOODAPI_AUTH_LIMIT: "5/1m",
  FOODAPI_TRIAL_IP_LIMIT: "1000/1h",
});

describe.skipIf(missing !== undefined)("two instances sharing PostgreSQL and Redis", () => {
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    [a, b] = await Promise.all([startServer({ env: env() }), startServer({ env: env() })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  test("both came up on the empty database, the schema applied once; the start-up line names no password", async () => {
    const sql = new SQL(postgres.url);
    try {
      // Every migration once (the version is the table's primary key, so a second apply would have failed).
      const versions = await sql`SELECT version FROM foodapi_schema ORDER BY version`;
      expect(versions).toEqual(versionsOfNewDatabase(POSTGRES_SCHEMA));
    } finally {
      await sql.close();
    }
    for (const server of [a, b]) {
      expect(server.stderr()).toContain(`state in PostgreSQL at 127.0.0.1:${postgres.port}/foodapi, counters in Redis at 127.0.0.1:${redis.port}`);
    }
  });

  test("an account made on A signs in on B; a key issued on A works on B; revoked on B, refused on A within 1 s", async () => {
    const signUp = await fetch(`${a.url}/api/auth/sign-up/email`, jsonPost({ email: "two@example.com", password: "password123", name: "Two" }));
    expect(signUp.status).toBe(200);
    const signIn = await fetch(`${b.url}/api/auth/sign-in/email`, jsonPost({ email: "two@example.com", password: "password123" }));
    expect(signIn.status).toBe(200);
    const cookieA = sessionCookie(signUp);
    const cookieB = sessionCookie(signIn);

    const issued = await fetch(`${a.url}/v1/keys`, jsonPost({ name: "shared" }, { cookie: cookieA }));
    expect(issued.status).toBe(201);
    const { id, key } = (await issued.json()) as { id: string; key: string };
    const onA = () => fetch(`${a.url}/v1/nutrients`, { headers: { "x-api-key": key } });
    expect((await fetch(`${b.url}/v1/nutrients`, { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await onA()).status).toBe(200);

    expect((await fetch(`${b.url}/v1/keys/${id}`, { method: "DELETE", headers: { cookie: cookieB } })).status).toBe(204);
    const revokedAt = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - revokedAt < 1500) status = (await onA()).status;
    expect(status).toBe(401);
    expect(performance.now() - revokedAt).toBeLessThan(1000);
  });

  test("an account deleted on B: its key is refused on A at once (Redis's signal), usage of both instances adds up, the e-mail signs up again", async () => {
    const signUp = await fetch(`${b.url}/api/auth/sign-up/email`, jsonPost({ email: "leaving@example.com", password: "password123", name: "L" }));
    const cookie = sessionCookie(signUp);
    const { id, key } = (await (await fetch(`${b.url}/v1/keys`, jsonPost({ name: "k" }, { cookie }))).json()) as { id: string; key: string };
    for (const server of [a, b, a]) expect((await fetch(`${server.url}/v1/nutrients`, { headers: { "x-api-key": key } })).status).toBe(200);
    await pollUntil(
      async () => {
        const { items } = (await (await fetch(`${a.url}/v1/keys/${id}/usage`, { headers: { cookie } })).json()) as { items: { allowed: number }[] };
        return items[0]?.allowed === 3 ? true : undefined;
      },
      { ms: 5000, intervalMs: 100, what: "usage of 3 requests on two instances" },
    );

    const deleted = await fetch(`${b.url}/api/auth/delete-user`, jsonPost({ password: "password123" }, { cookie }));
    expect(deleted.status).toBe(200);
    // Not within the key cache's second: at once.
    expect((await fetch(`${a.url}/v1/nutrients`, { headers: { "x-api-key": key } })).status).toBe(401);
    expect((await fetch(`${b.url}/v1/nutrients`, { headers: { "x-api-key": key } })).status).toBe(401);
    expect((await fetch(`${a.url}/api/auth/sign-up/email`, jsonPost({ email: "leaving@example.com", password: "password456", name: "L" }))).status).toBe(200);
  });

  test("60 concurrent requests with one fresh trial token, split across A and B: exactly 30 × 200 and 30 × 429", async () => {
    const { token } = await obtainTrialToken((path, init) => fetch(`${a.url}${path}`, init));
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => fetch(`${(i % 2 ? a : b).url}/v1/foods?q=cheese`, { headers: { authorization: `Bearer ${token}` } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  test("a 20/1m key limit admits exactly 20 across both", async () => {
    const key = runBinary(["keys", "create", "--email", "limit@example.com", "--name", "limit"], { env: { FOODAPI_STATE_URL: postgres.url } });
    expect(key.exitCode).toBe(0);
    const presented = key.stdout.trim();
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, i) => fetch(`${(i % 2 ? a : b).url}/v1/food-groups`, { headers: { "x-api-key": presented } })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  test("a challenge solution redeemed on A is refused on B", async () => {
    const challenge = await (await fetch(`${a.url}/v1/trial-challenge`)).json();
    const challengeToken = await solveToWidgetPayload(challenge as never);
    expect((await fetch(`${a.url}/v1/trial-token`, jsonPost({ challengeToken }))).status).toBe(201);
    const replay = await fetch(`${b.url}/v1/trial-token`, jsonPost({ challengeToken }));
    expect(replay.status).toBe(ERRORS.CHALLENGE_FAILED[0]);
    expect(((await replay.json()) as { code: string }).code).toBe("CHALLENGE_FAILED");
  });

  test("sign-in attempts per client IP are counted across both", async () => {
    const from = { "cf-connecting-ip": "203.0.113.9" };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const server = i % 2 ? a : b;
      statuses.push((await fetch(`${server.url}/api/auth/sign-in/email`, jsonPost({ email: "nobody@example.com", password: "wrong password" }, from))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});

describe.skipIf(missing !== undefined)("start-up with a state URL it cannot use", () => {
  test("a URL of the wrong kind: one line naming the setting, no password, exit 2", () => {
    const result = runBinary(["serve", "--port", "0", "--state-url", "mysql://root:hunter2@127.0.0.1/x"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--state-url");
    expect(result.stderr).not.toContain("hunter2");
  });

  test("a PostgreSQL that does not answer: one line naming the setting after the retries, exit 1", () => {
    const result = runBinary(["serve", "--port", "0"], { env: { FOODAPI_STATE_URL: "postgres://foodapi:hunter2@127.0.0.1:9/foodapi" } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("FOODAPI_STATE_URL");
    expect(result.stderr).not.toContain("hunter2");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
