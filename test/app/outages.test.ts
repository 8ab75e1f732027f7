import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LEASE_TTL_MS } from "../../src/limits/limiter";
import { TRIAL_TOKEN_REQUESTS } from "../../src/trial/token";
import { obtainTrialToken } from "../helpers/altcha";
import { type RunningServer, runBinary, startServer } from "../helpers/binary";
import { rawFetch } from "../helpers/contract-fetch";
import { jsonPost, sessionCookie } from "../helpers/http";
import { postgresMissing, redisMissing, type StoreServer, startPostgres, startRedis } from "../helpers/store-servers";
import { startTcpProxy } from "../helpers/tcp-proxy";
import { pollUntil } from "../helpers/wait";

/**
 * Outages against the compiled binaries (design §11, issue 16): two instances sharing one PostgreSQL and
 * one Redis under a bounded concurrent load on loopback, while Redis or PostgreSQL stops and starts again,
 * and while one instance is killed outright. Every answer is 200, 429 or 503 (a 503 with Retry-After and
 * the JSON error shape), none takes longer than a bound, quotas never fail open, and service returns by
 * itself. Redis keeps its data across its restart here (an append-only file), so that the key's window
 * too is counted across the whole run, restart included (a Redis that keeps nothing would restart the
 * window, which a window may; the trial token's count is PostgreSQL's either way).
 */
const missing = postgresMissing() ?? redisMissing();
if (missing) console.error(`skipping the outage tests: ${missing}`);

/** The free tier's limit for these binaries: FOODAPI_FREE_LIMIT=50/1m, far longer than any test here runs. */
const KEY_LIMIT = 50;
/** No answer, 200 or 503, may take longer (the stores' own bounds are 2 s). */
const ANSWER_BOUND_MS = 3000;
/** A fetch that has not answered by then is reported as a hang rather than left waiting. */
const FETCH_ABORT_MS = 10_000;
const PASSWORD = "outage password 1";

let postgres: StoreServer;
let redis: StoreServer;
let a: RunningServer;
let b: RunningServer;
/** A third instance, reaching PostgreSQL and Redis through proxies that can go silent (the silent-store test). */
let c: RunningServer | undefined;

type Instance = "A" | "B" | "C";
const urlOf = (server: Instance) => ({ A: a, B: b, C: c })[server]!.url;

const env = (urls: { state: string; redis: string } = { state: postgres.url, redis: redis.url }) => ({
  FOODAPI_STATE_URL: urls.state,
  FOODAPI_REDIS_URL: urls.redis,
  FOODAPI_FREE_LIMIT: `${KEY_LIMIT}/1m`,
  // Limits the loops below must not reach: what is under test is the key's and the trial token's quota.
  FOODAPI_AUTH_LIMIT: "100000/1m",
  FOODAPI_TRIAL_IP_LIMIT: "100000/1h",
  FOODAPI_KEY_ISSUE_LIMIT: "100000/1h",
  // One process per instance: a SIGKILL of the process is the loss of the whole instance.
  FOODAPI_WORKERS: "1",
});

/** One request of a load loop and how it was answered. */
interface Answer {
  /** What the request was, for the assertions to pick out ("key", "trial", "keys-list", ...). */
  what: string;
  server: Instance;
  /** performance.now() when it was sent, and how long the answer took (to its last byte). */
  sentAt: number;
  ms: number;
  /** The status, or "error" when no answer came (connection refused, reset, aborted). */
  status: number | "error";
  retryAfter: string | null;
  contentType: string | null;
  /** The answer's X-Request-Id: every answer has one, a 503 built after the guard included. */
  requestId: string | null;
  body: string;
}

interface Request {
  what: string;
  server: Instance;
  path: string;
  init?: RequestInit;
}

/**
 * `concurrency` loops, each sending `next(i)` (i counting every request of the load), pausing `paceMs`
 * after each answer; bounded by `maxRequests` in all and `maxMs`, and stopped early by `stop()`. Answers are
 * read whole, through the unchecked fetch: the loop counts raw responses and checks their shape itself.
 */
function startLoad(options: { concurrency: number; paceMs: number; maxRequests: number; maxMs: number; next: (i: number) => Request | undefined }) {
  const answers: Answer[] = [];
  const deadline = performance.now() + options.maxMs;
  let issued = 0;
  let stopped = false;
  const loop = async () => {
    while (!stopped && issued < options.maxRequests && performance.now() < deadline) {
      const request = options.next(issued++);
      if (!request) {
        await Bun.sleep(options.paceMs);
        continue;
      }
      const base = urlOf(request.server);
      const sentAt = performance.now();
      let answer: Answer;
      try {
        const response = await rawFetch(`${base}${request.path}`, { ...request.init, signal: AbortSignal.timeout(FETCH_ABORT_MS) });
        const body = await response.text();
        answer = {
          what: request.what,
          server: request.server,
          sentAt,
          ms: performance.now() - sentAt,
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          contentType: response.headers.get("content-type"),
          requestId: response.headers.get("x-request-id"),
          body,
        };
      } catch (error) {
        answer = { what: request.what, server: request.server, sentAt, ms: performance.now() - sentAt, status: "error", retryAfter: null, contentType: null, requestId: null, body: String(error) };
      }
      answers.push(answer);
      await Bun.sleep(options.paceMs);
    }
  };
  const done = Promise.all(Array.from({ length: options.concurrency }, loop)).then(() => answers);
  return {
    answers,
    done,
    async stop() {
      stopped = true;
      return done;
    },
  };
}

/**
 * Fails unless every answer is one of `allowed`, none took longer than the bound, every answer carries its
 * X-Request-Id, and every 503 is SERVICE_UNAVAILABLE with Retry-After.
 */
function expectWellFormed(answers: Answer[], allowed: number[]) {
  const unexpected = answers.filter((x) => x.status === "error" || !allowed.includes(x.status));
  expect(unexpected.map((x) => `${x.what} on ${x.server}: ${x.status} ${x.body.slice(0, 200)}`)).toEqual([]);
  // The server sets it on every finished answer; a storage fault's 503, built after the guard let the
  // request in, is where an answer could miss it.
  expect(answers.filter((x) => !/^[0-9a-f]+-[0-9a-z]+$/.test(x.requestId ?? "")).map((x) => `${x.what} on ${x.server}: ${x.status} without a request id`)).toEqual([]);
  const slowest = answers.reduce((max, x) => Math.max(max, x.ms), 0);
  expect(slowest).toBeLessThan(ANSWER_BOUND_MS);
  for (const x of answers.filter((x) => x.status === 503)) {
    expect(x.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(x.contentType).toStartWith("application/json");
    expect(JSON.parse(x.body)).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
  }
}

const count = (answers: Answer[], what: string, status: number | "error") => answers.filter((x) => x.what === what && x.status === status).length;

/** Resolves once `server`'s /healthz answers `status` (it probes the stores at most once a second). */
const healthz = (server: RunningServer, status: number, ms: number) =>
  pollUntil(async () => ((await rawFetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(FETCH_ABORT_MS) })).status === status ? true : undefined), {
    ms,
    intervalMs: 100,
    what: `${server.url}/healthz answering ${status}`,
  });

/** An API key of a new account, made by `foodapi keys create` on the shared PostgreSQL. */
/**
 * Stops `store` until both instances' /healthz says 503 and at least two seconds of load have met the
 * outage, then starts it again (whatever happened meanwhile): the outage's window, for the load's answers.
 */
async function twoSecondOutage(store: StoreServer): Promise<{ stoppedAt: number; startedAt: number }> {
  await store.stop();
  const stoppedAt = performance.now();
  try {
    await Promise.all([healthz(a, 503, 5000), healthz(b, 503, 5000)]);
    await pollUntil(() => (performance.now() - stoppedAt >= 2000 ? true : undefined), { ms: 5000, what: "two seconds of outage" });
  } finally {
    await store.start();
  }
  return { stoppedAt, startedAt: performance.now() };
}

function createKey(email: string): string {
  const made = runBinary(["keys", "create", "--email", email, "--name", "outage"], { env: { FOODAPI_STATE_URL: postgres.url } });
  if (made.exitCode !== 0) throw new Error(`keys create: ${made.stderr}`);
  return made.stdout.trim();
}

const stillRunning = (server: RunningServer) => server.process.exitCode === null && server.process.signalCode === null;

describe.skipIf(missing !== undefined)("outages under load, two instances sharing PostgreSQL and Redis", () => {
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis({ persistent: true })]);
    [a, b] = await Promise.all([startServer({ env: env() }), startServer({ env: env() })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  test("Redis stopped mid-load: 200, 429 or 503 with Retry-After, no hang, /healthz 503, never a 200 past a quota; started again: 200s resume", async () => {
    const key = createKey("redis-outage@example.com");
    const spareKey = createKey("redis-outage-spare@example.com");
    const { token } = await obtainTrialToken((path, init) => fetch(`${a.url}${path}`, init));
    const pids = [a.process.pid, b.process.pid];

    // About 50 requests a second, half with the key and half with the trial token, each half split
    // between A and B: neither quota is used up before Redis stops, both are after it is back (the trial's
    // maybe sooner: it is counted in PostgreSQL, which the outage leaves alone).
    const load = startLoad({
      concurrency: 8,
      paceMs: 150,
      maxRequests: 1500,
      maxMs: 40_000,
      next: (i) => ({
        what: i % 2 ? "key" : "trial",
        server: i % 4 < 2 ? "A" : "B",
        path: "/v1/foods?q=cheese&limit=5",
        init: { headers: (i % 2 ? { "x-api-key": key } : { authorization: `Bearer ${token}` }) as Record<string, string> },
      }),
    });
    try {
      await pollUntil(() => (count(load.answers, "key", 200) >= 5 && count(load.answers, "trial", 200) >= 5 ? true : undefined), {
        ms: 10_000,
        what: "the load's first 200s",
      });
      expect(count(load.answers, "key", 200)).toBeLessThan(KEY_LIMIT / 2);
      expect(count(load.answers, "trial", 200)).toBeLessThan(TRIAL_TOKEN_REQUESTS / 2);

      const { stoppedAt, startedAt } = await twoSecondOutage(redis);
      const during = load.answers.filter((x) => x.sentAt > stoppedAt + 100 && x.sentAt + x.ms < startedAt);
      expect(during.filter((x) => x.status === 503).length).toBeGreaterThan(10);
      // The trial token's count is PostgreSQL's: nothing of it waits for Redis.
      expect(during.filter((x) => x.what === "trial" && x.status === 503).length).toBe(0);

      // Back by itself: the same processes answer 200 again, a fresh key at once and the load's own
      // credentials while their quota lasts; /healthz says so within its probe interval.
      for (const server of [a, b]) {
        await pollUntil(
          async () => ((await fetch(`${server.url}/v1/foods?q=cheese&limit=5`, { headers: { "x-api-key": spareKey } })).status === 200 ? true : undefined),
          { ms: 15_000, intervalMs: 100, what: `a 200 from ${server.url} after Redis started again` },
        );
      }
      await Promise.all([healthz(a, 200, 10_000), healthz(b, 200, 10_000)]);
      // Then on until both quotas are used up, so that the counts below are against a full quota.
      await pollUntil(
        () => {
          const after = load.answers.filter((x) => x.sentAt > startedAt);
          return after.some((x) => x.what === "key" && x.status === 429) && after.some((x) => x.what === "trial" && x.status === 429) ? true : undefined;
        },
        { ms: 20_000, what: "both quotas used up after the restart" },
      );
      const answers = await load.stop();

      expectWellFormed(answers, [200, 429, 503]);
      const after = answers.filter((x) => x.sentAt > startedAt);
      expect(after.filter((x) => x.status === 200).length).toBeGreaterThan(0);
      // Quotas never fail open: across the whole run, outage and restart included.
      expect(count(answers, "key", 200)).toBeLessThanOrEqual(KEY_LIMIT);
      expect(count(answers, "trial", 200)).toBeLessThanOrEqual(TRIAL_TOKEN_REQUESTS);
      console.error(
        `redis outage: ${answers.length} answers (${during.length} during ${Math.round(startedAt - stoppedAt)} ms of outage, ${during.filter((x) => x.status === 503).length} of them 503); ` +
          `key ${count(answers, "key", 200)} × 200 of ${KEY_LIMIT}, trial ${count(answers, "trial", 200)} × 200 of ${TRIAL_TOKEN_REQUESTS}; slowest ${Math.round(Math.max(...answers.map((x) => x.ms)))} ms`,
      );
      expect([a.process.pid, b.process.pid]).toEqual(pids);
      expect(stillRunning(a) && stillRunning(b)).toBe(true);
    } finally {
      await load.stop();
    }
  }, 120_000);

  test("PostgreSQL stopped mid-load: the requests needing it 503 with Retry-After, no hang, /healthz 503; started again: back by itself", async () => {
    const key = createKey("postgres-outage@example.com");
    const email = "postgres-outage-user@example.com";
    const signUp = await fetch(`${a.url}/api/auth/sign-up/email`, jsonPost({ email, password: PASSWORD, name: "Outage" }));
    expect(signUp.status).toBe(200);
    const cookie = sessionCookie(signUp);
    const pids = [a.process.pid, b.process.pid];
    const maxIssues = 20;
    let issues = 0;

    // Requests that need PostgreSQL (the session and key routes, signing in) and the key's searches (its
    // record is cached for a second, its limit is in Redis) at about 50 a second, split between A and B.
    const load = startLoad({
      concurrency: 8,
      paceMs: 150,
      maxRequests: 1500,
      maxMs: 40_000,
      next: (i): Request => {
        const server = i % 8 < 4 ? "A" : "B";
        switch (i % 4) {
          case 0:
            return { what: "key", server, path: "/v1/foods?q=apple&limit=5", init: { headers: { "x-api-key": key } } };
          case 1:
            return { what: "keys-list", server, path: "/v1/keys", init: { headers: { cookie } } };
          case 2:
            return { what: "sign-in", server, path: "/api/auth/sign-in/email", init: jsonPost({ email, password: PASSWORD }) };
          default:
            // A bounded number of writes, spread over the run (an account holds 25 keys at most).
            if (i % 16 !== 3 || issues >= maxIssues) return { what: "keys-list", server, path: "/v1/keys", init: { headers: { cookie } } };
            issues++;
            return { what: "key-issue", server, path: "/v1/keys", init: jsonPost({ name: `outage ${i}` }, { cookie }) };
        }
      },
    });
    const needsPostgres = (x: Answer) => x.what !== "key";
    try {
      await pollUntil(() => (count(load.answers, "keys-list", 200) >= 3 && count(load.answers, "sign-in", 200) >= 3 && count(load.answers, "key-issue", 201) >= 2 ? true : undefined), {
        ms: 10_000,
        what: "the load's first answers from PostgreSQL",
      });

      const { stoppedAt, startedAt } = await twoSecondOutage(postgres);
      const during = load.answers.filter((x) => needsPostgres(x) && x.sentAt > stoppedAt + 100 && x.sentAt + x.ms < startedAt);
      expect(during.length).toBeGreaterThan(10);
      // Every request that needed PostgreSQL while it was down was refused as unavailable.
      expect(during.filter((x) => x.status !== 503).map((x) => `${x.what} on ${x.server}: ${x.status}`)).toEqual([]);

      // Back by itself, on both instances, without restarting them.
      for (const server of [a, b]) {
        await pollUntil(async () => ((await fetch(`${server.url}/v1/keys`, { headers: { cookie } })).status === 200 ? true : undefined), {
          ms: 15_000,
          intervalMs: 100,
          what: `the key list from ${server.url} after PostgreSQL started again`,
        });
        expect((await fetch(`${server.url}/api/auth/sign-in/email`, jsonPost({ email, password: PASSWORD }))).status).toBe(200);
      }
      await Promise.all([healthz(a, 200, 10_000), healthz(b, 200, 10_000)]);
      await pollUntil(() => (load.answers.some((x) => x.what === "key-issue" && x.sentAt > startedAt && x.status === 201) ? true : undefined), {
        ms: 10_000,
        what: "the load's writes acknowledged again after the restart",
      });
      const answers = await load.stop();

      expectWellFormed(answers.filter((x) => x.what !== "key-issue"), [200, 429, 503]);
      expectWellFormed(answers.filter((x) => x.what === "key-issue"), [201, 503]);
      expect(count(answers, "key", 200)).toBeLessThanOrEqual(KEY_LIMIT);
      // Nothing acknowledged is lost: every key whose issue was answered 201 is listed.
      const listed = ((await (await fetch(`${b.url}/v1/keys`, { headers: { cookie } })).json()) as { items: { id: string }[] }).items;
      const acknowledged = answers.filter((x) => x.what === "key-issue" && x.status === 201).map((x) => (JSON.parse(x.body) as { id: string }).id);
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(listed.map((k) => k.id)).toEqual(expect.arrayContaining(acknowledged));
      console.error(
        `postgres outage: ${answers.length} answers (${during.length} needing PostgreSQL during ${Math.round(startedAt - stoppedAt)} ms of outage, all 503); ` +
          `${acknowledged.length} of ${issues} key issues acknowledged, ${listed.length} listed; slowest ${Math.round(Math.max(...answers.map((x) => x.ms)))} ms`,
      );
      expect([a.process.pid, b.process.pid]).toEqual(pids);
      expect(stillRunning(a) && stillRunning(b)).toBe(true);
    } finally {
      await load.stop();
    }
  }, 120_000);

  test("PostgreSQL, then Redis, silent mid-load (connections open, no answers): every answer within the bound, none past a quota; answering again: back by itself", async () => {
    // What a stop does not show: a server that hangs, or a network that drops packets without a reset, so
    // that only foodapi's own bounds end a call (2 s for PostgreSQL, 1 s + 1 s for Redis).
    const [postgresProxy, redisProxy] = await Promise.all([startTcpProxy(postgres.port), startTcpProxy(redis.port)]);
    try {
      c = await startServer({
        env: env({ state: `postgres://postgres@127.0.0.1:${postgresProxy.port}/foodapi`, redis: `redis://127.0.0.1:${redisProxy.port}` }),
      });
      const key = createKey("silent@example.com");
      const email = "silent-user@example.com";
      const signUp = await fetch(`${c.url}/api/auth/sign-up/email`, jsonPost({ email, password: PASSWORD, name: "Silent" }));
      expect(signUp.status).toBe(200);
      const cookie = sessionCookie(signUp);
      const { token } = await obtainTrialToken((path, init) => fetch(`${c!.url}${path}`, init));

      const load = startLoad({
        concurrency: 8,
        paceMs: 150,
        maxRequests: 1500,
        maxMs: 60_000,
        next: (i): Request => {
          switch (i % 5) {
            case 0:
              return { what: "key", server: "C", path: "/v1/foods?q=bread&limit=5", init: { headers: { "x-api-key": key } } };
            case 1:
              return { what: "trial", server: "C", path: "/v1/foods?q=bread&limit=5", init: { headers: { authorization: `Bearer ${token}` } } };
            case 2:
              return { what: "keys-list", server: "C", path: "/v1/keys", init: { headers: { cookie } } };
            case 3:
              return { what: "sign-in", server: "C", path: "/api/auth/sign-in/email", init: jsonPost({ email, password: PASSWORD }) };
            default:
              // Needs Redis only (its per-IP limit), which the trial token's requests do not.
              return { what: "challenge", server: "C", path: "/v1/trial-challenge" };
          }
        },
      });
      const silences: { store: string; from: number; to: number }[] = [];
      try {
        await pollUntil(() => (count(load.answers, "keys-list", 200) >= 2 && count(load.answers, "key", 200) >= 2 ? true : undefined), {
          ms: 10_000,
          what: "the load's first 200s",
        });
        for (const [store, proxy, needing] of [
          ["PostgreSQL", postgresProxy, "keys-list"],
          ["Redis", redisProxy, "challenge"],
        ] as const) {
          proxy.silence();
          const from = performance.now();
          try {
            await healthz(c, 503, 8000);
            await pollUntil(() => (performance.now() - from >= 3000 ? true : undefined), { ms: 6000, what: `three seconds of silent ${store}` });
          } finally {
            proxy.speak();
          }
          const to = performance.now();
          silences.push({ store, from, to });
          // A lease of the per-IP limit taken just before the silence may still serve a challenge from memory.
          const during = load.answers.filter((x) => x.what === needing && x.sentAt > from + LEASE_TTL_MS && x.sentAt + x.ms < to);
          expect(during.length).toBeGreaterThan(0);
          expect(during.filter((x) => x.status !== 503).map((x) => `${x.what}: ${x.status}`)).toEqual([]);
          await pollUntil(() => (load.answers.some((x) => x.what === needing && x.sentAt > to && x.status === 200) ? true : undefined), {
            ms: 15_000,
            what: `a 200 needing ${store} once it answers again`,
          });
          await healthz(c, 200, 10_000);
        }
      } finally {
        await load.stop();
      }
      const answers = load.answers;
      expectWellFormed(answers, [200, 429, 503]);
      expect(count(answers, "key", 200)).toBeLessThanOrEqual(KEY_LIMIT);
      expect(count(answers, "trial", 200)).toBeLessThanOrEqual(TRIAL_TOKEN_REQUESTS);
      console.error(
        `silent stores: ${answers.length} answers; ${silences
          .map(({ store, from, to }) => `${store} silent ${Math.round(to - from)} ms, ${answers.filter((x) => x.sentAt > from && x.sentAt + x.ms < to && x.status === 503).length} × 503`)
          .join("; ")}; slowest ${Math.round(Math.max(...answers.map((x) => x.ms)))} ms`,
      );
    } finally {
      await c?.stop();
      c = undefined;
      postgresProxy.stop();
      redisProxy.stop();
    }
  }, 120_000);

  test("kill -9 of A while A and B sign users up and issue keys: every acknowledged write is there, read through B", async () => {
    interface Written {
      server: "A" | "B";
      at: number;
    }
    const accounts: (Written & { email: string })[] = [];
    const keys: (Written & { email: string; id: string; key: string })[] = [];
    let killedAt = Infinity;

    // Each step: sign up on one instance, then issue a key with that session on it and one on the other.
    // Writes that got no answer (A killed under them) are not acknowledged and not looked for.
    const other = (server: "A" | "B") => (server === "A" ? "B" : "A");
    const url = (server: "A" | "B") => (server === "A" ? a.url : b.url);
    const step = async (i: number) => {
      const first: "A" | "B" = i % 2 ? "A" : "B";
      const email = `killed-${i}@example.com`;
      const signUp = await rawFetch(`${url(first)}/api/auth/sign-up/email`, { ...jsonPost({ email, password: PASSWORD, name: `Killed ${i}` }), signal: AbortSignal.timeout(FETCH_ABORT_MS) });
      await signUp.arrayBuffer();
      if (signUp.status !== 200) return;
      accounts.push({ server: first, at: performance.now(), email });
      const cookie = sessionCookie(signUp);
      for (const server of [first, other(first)] as const) {
        const issued = await rawFetch(`${url(server)}/v1/keys`, { ...jsonPost({ name: `key ${i}` }, { cookie }), signal: AbortSignal.timeout(FETCH_ABORT_MS) }).catch(() => undefined);
        if (issued?.status !== 201) continue;
        const { id, key } = (await issued.json()) as { id: string; key: string };
        keys.push({ server, at: performance.now(), email, id, key });
      }
    };
    const maxSteps = 60;
    let next = 0;
    const deadline = performance.now() + 30_000;
    let stopAt = Infinity;
    const loop = async () => {
      while (next < maxSteps && performance.now() < Math.min(deadline, stopAt)) {
        await step(next++).catch(() => {});
      }
    };
    const loops = Promise.all(Array.from({ length: 4 }, loop));
    try {
      // A killed in the middle: once it has acknowledged a few writes of both kinds.
      await pollUntil(() => (accounts.filter((w) => w.server === "A").length >= 5 && keys.filter((w) => w.server === "A").length >= 5 ? true : undefined), {
        ms: 20_000,
        what: "writes acknowledged by A",
      });
      a.process.kill("SIGKILL");
      killedAt = performance.now();
      await a.process.exited;
      // B goes on for a while: a second, and a few more writes.
      await pollUntil(() => (performance.now() - killedAt >= 1000 && keys.filter((w) => w.at > killedAt).length >= 5 ? true : undefined), {
        ms: 20_000,
        what: "writes acknowledged by B after the kill",
      });
      stopAt = performance.now();
    } finally {
      stopAt = 0;
      await loops;
    }

    expect(a.process.signalCode).toBe("SIGKILL");
    expect(accounts.length).toBeGreaterThan(0);
    const byEmail = new Map<string, string>();
    for (const { email } of accounts) {
      const signIn = await fetch(`${b.url}/api/auth/sign-in/email`, jsonPost({ email, password: PASSWORD }));
      expect(signIn.status, `sign-in of ${email} on B`).toBe(200);
      byEmail.set(email, sessionCookie(signIn));
    }
    for (const { email, id, key } of keys) {
      // A key acknowledged by either instance works on B, and its owner's list has it.
      const used = await fetch(`${b.url}/v1/nutrients`, { headers: { "x-api-key": key } });
      expect(used.status, `key ${id} of ${email} on B`).toBe(200);
      const listed = ((await (await fetch(`${b.url}/v1/keys`, { headers: { cookie: byEmail.get(email)! } })).json()) as { items: { id: string }[] }).items;
      expect(listed.map((k) => k.id)).toContain(id);
    }
    console.error(
      `kill -9: ${accounts.length} sign-ups (${accounts.filter((w) => w.server === "A").length} by A) and ${keys.length} keys (${keys.filter((w) => w.server === "A").length} by A) acknowledged, ` +
        `${keys.filter((w) => w.at > killedAt).length} keys by B after the kill; all there through B`,
    );
  }, 120_000);
});

describe("start-up with a Redis it cannot use", () => {
  test("a Redis that does not answer: one line naming FOODAPI_REDIS_URL after the retries, no password, exit 1", () => {
    const result = runBinary(["serve", "--port", "0"], { env: { FOODAPI_REDIS_URL: "redis://foodapi:hunter2@127.0.0.1:9/0" } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("FOODAPI_REDIS_URL");
    expect(result.stderr).not.toContain("hunter2");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("a URL that is not Redis's: one line naming the setting, no password, exit 2", () => {
    const result = runBinary(["serve", "--port", "0", "--redis-url", "http://foodapi:hunter2@127.0.0.1:9/0"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--redis-url");
    expect(result.stderr).not.toContain("hunter2");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
