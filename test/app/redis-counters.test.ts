import { afterAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import type { Challenge } from "altcha-lib";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS } from "../../src/platform/storage/redis";
import { parseRedisUrl } from "../../src/platform/config/config";
import { openRedisCounters, stateWithCounters, withRedis } from "../../src/app/state/redis-state";
import { openSqliteState, openSqliteStateDb, sqliteStores } from "../../src/app/state/sqlite-state";
import type { StateStores } from "../../src/app/state/state-stores";
import { storageFault } from "../../src/platform/storage/storage-fault";
import { TRIAL_TOKEN_REQUESTS } from "../../src/trial/token";
import type { ContractBackend } from "../contracts";
import { accountStoreContract } from "../contracts/account-store";
import { registerChecks } from "../contracts/backend";
import { healthContract } from "../contracts/health";
import { keyStoreContract } from "../contracts/key-store";
import { limitStoreChecks } from "../contracts/limit-store";
import { sessionStoreContract } from "../contracts/session-store";
import { trialStoreChecks } from "../contracts/trial-store";
import { solveToWidgetPayload } from "../helpers/altcha";
import { jsonPost } from "../helpers/http";
import { redisMissing, type StoreServer, startRedis } from "../helpers/store-servers";
import { storeThreadPool } from "../helpers/store-threads";
import { createTestApp } from "../helpers/test-app";
import { pollUntil, readStream } from "../helpers/wait";

/**
 * The Redis counters (app/state/redis-state.ts) against the store contracts, through an outage and across a
 * restart: SQLite for accounts, sessions, keys and the trial's counts; rate limits and revocations in a
 * throwaway Redis server (without persistence unless a test says so). Each opened state has a key prefix
 * (and so a revocation channel) of its own.
 */
const missing = redisMissing();
/** A URL as the config loader hands it over (a URL it refuses: test/platform/config.test.ts). */
const redisAt = (url: string) => parseRedisUrl(url, "--redis-url");
const server: StoreServer | undefined = missing ? undefined : await startRedis();
afterAll(async () => {
  await server?.stop();
});

/** What any call may take before it has answered or failed (platform/storage/redis.ts), and some slack for a busy machine. */
const BOUND_MS = REDIS_CONNECT_TIMEOUT_MS + REDIS_COMMAND_TIMEOUT_MS;
const SLACK_MS = 500;

let prefixes = 0;
const freshPrefix = () => `test:${process.pid}:${++prefixes}:`;

/**
 * The check that holds for limit stores that must be swept: Redis's windows expire by themselves and
 * `sweep` returns 0 (see the check that replaces it below).
 */
const SWEEP_CHECK = "sweep deletes only counters no window counts any more, at most batch a call, and counts them";
const withoutSweep = <C extends Record<string, unknown>>(checks: C): C => {
  // A renamed check must not silently stop running here.
  if (!(SWEEP_CHECK in checks)) throw new Error("the sweep check to leave out is not there: renamed?");
  return Object.fromEntries(Object.entries(checks).filter(([name]) => name !== SWEEP_CHECK)) as C;
};

if (missing) {
  test.skip(`Redis counters: ${missing}`, () => {});
} else {
  const url = server!.url;
  const threads = storeThreadPool(new URL("../helpers/sqlite-store-thread.ts", import.meta.url));

  const backend: ContractBackend = {
    name: "SQLite + Redis counters",
    async open() {
      const dataDir = mkdtempSync(join(tmpdir(), "foodapi-redis-contracts-"));
      const prefix = freshPrefix();
      const handles: StateStores[] = [];
      const lent: Array<{ release(): Promise<void> }> = [];
      const open = async (state: StateStores) => {
        const handle = await withRedis(state, redisAt(url), { prefix });
        handles.push(handle);
        return handle;
      };
      const stores = await open(openSqliteState(dataDir));
      return {
        stores,
        peer: () => open(sqliteStores(openSqliteStateDb(dataDir))),
        async parallel(n) {
          // Threads with their own SQLite connections, each with Redis clients of its own.
          const lease = await threads.lend(n, dataDir);
          lent.push(lease);
          return Promise.all(lease.handles.map(open));
        },
        async close() {
          for (const handle of handles) await handle.close();
          await Promise.all(lent.map((lease) => lease.release()));
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };

  accountStoreContract(backend);
  sessionStoreContract(backend);
  keyStoreContract(backend);
  registerChecks("LimitStore", backend, withoutSweep(limitStoreChecks));
  // The state store's own: nothing of the trial is in Redis, so it is swept like any other.
  registerChecks("TrialStore", backend, trialStoreChecks);
  healthContract(backend);
  afterAll(() => threads.terminate());

  /** A plain client, to look at what the stores left in Redis. */
  const inspect = async () => {
    const client = new RedisClient(url, { autoReconnect: false, enableOfflineQueue: false });
    await client.connect();
    return client;
  };

  describe("Redis counters expire by themselves (instead of the sweep check)", () => {
    test("limits: sweep returns 0; a bucket's hash lives (slots + 1) slots after its last grant, then is gone", async () => {
      const prefix = freshPrefix();
      const counters = await openRedisCounters(redisAt(url), { prefix });
      const raw = await inspect();
      try {
        const slotMs = 100;
        const slot = Math.floor(Date.now() / slotMs);
        expect(await counters.limits.grant("a", 10, slot, 2, slotMs, 3)).toEqual({ granted: 3, used: 3, oldestSlot: slot });
        const ttl = await raw.send("PTTL", [`${prefix}limit:a`]);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(3 * slotMs);
        expect(await counters.limits.sweep(Date.now() + 3600_000, 100)).toBe(0);
        await Bun.sleep(3 * slotMs + 50);
        expect(await raw.send("EXISTS", [`${prefix}limit:a`])).toBe(0);
        // A release of a counter that is gone creates nothing.
        await counters.limits.release("a", slot, 2);
        expect(await raw.send("EXISTS", [`${prefix}limit:a`])).toBe(0);
      } finally {
        raw.close();
        counters.close();
      }
    });
  });

  describe("Redis counters across instances", () => {
    test("a revocation announced by another process reaches this one's takeRevoked within a second", async () => {
      const prefix = freshPrefix();
      const here = await openRedisCounters(redisAt(url), { prefix });
      try {
        expect(here.keyRevocations.takeRevoked()).toEqual([]);
        const script = `
          const { openRedisCounters } = await import(${JSON.stringify(new URL("../../src/app/state/redis-state.ts", import.meta.url).pathname)});
          const { parseRedisUrl } = await import(${JSON.stringify(new URL("../../src/platform/config/config.ts", import.meta.url).pathname)});
          const there = await openRedisCounters(parseRedisUrl(process.argv[1], "--redis-url"), { prefix: process.argv[2] });
          await Bun.write(Bun.stdout, "ready\\n");
          for await (const line of console) {
            await there.keyRevocations.onRevoked(line.trim());
          }
          there.close();
        `;
        const child = Bun.spawn([process.execPath, "-e", script, url, prefix], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
        const out = readStream(child.stdout);
        await out.until((text) => text.includes("ready") || undefined, 10_000, "the other process subscribed");
        const keyHash = "a".repeat(64);
        child.stdin.write(`${keyHash}\n`);
        child.stdin.flush();
        const taken = await pollUntil(
          () => {
            const news = here.keyRevocations.takeRevoked();
            return news === "all" || news.length > 0 ? news : undefined;
          },
          { ms: 1000, intervalMs: 5, what: "the revocation heard here" },
        );
        expect(taken).toEqual([keyHash]);
        expect(here.keyRevocations.takeRevoked()).toEqual([]);
        child.stdin.end();
        await child.exited;
      } finally {
        here.close();
      }
    });
  });

  test("which Redis errors are storage faults: a closed connection and BUSY are, WRONGTYPE and a script error are not", async () => {
    const client = await inspect();
    const busy = await inspect();
    const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable(), (error: unknown) => error);
    try {
      await client.send("SET", ["fault:string", "x"]);
      expect(storageFault(await failure(client.send("HGET", ["fault:string", "f"])))).toBeUndefined();
      expect(storageFault(await failure(client.send("EVAL", ["return redis.call('NOSUCHCOMMAND')", "0"])))).toBeUndefined();
      // A script running past busy-reply-threshold: every other client is told BUSY meanwhile.
      await client.send("CONFIG", ["SET", "busy-reply-threshold", "50"]);
      const spinning = busy.send("EVAL", ["local t = redis.call('TIME') repeat local n = redis.call('TIME') until (n[1] - t[1]) * 1000000 + n[2] - t[2] > 300000 return 1", "0"]);
      await Bun.sleep(150);
      expect(storageFault(await failure(client.send("GET", ["fault:string"])))).toEqual({ code: "REDIS_BUSY", message: expect.stringMatching(/^BUSY /) });
      await spinning;
      await client.send("CONFIG", ["SET", "busy-reply-threshold", "5000"]);
      client.close();
      expect(storageFault(await failure(client.send("GET", ["fault:string"])))).toMatchObject({ code: "ERR_REDIS_CONNECTION_CLOSED" });
    } finally {
      client.close();
      busy.close();
    }
  });

  /** How a call ended and how long it took. */
  async function timed(call: () => unknown): Promise<{ ms: number; error?: unknown; value?: unknown }> {
    const started = performance.now();
    try {
      const value = await call();
      return { ms: performance.now() - started, value };
    } catch (error) {
      return { ms: performance.now() - started, error };
    }
  }

  /**
   * Every counter call fails, each within the bound, with an error the app answers with 503; the trial's
   * counts, the state store's, go on.
   */
  async function expectFaults(stores: StateStores): Promise<void> {
    const calls: Record<string, () => unknown> = {
      grant: () => stores.limits.grant("outage", 10, Math.floor(Date.now() / 1000), 5, 1000, 1),
      ping: () => stores.ping(),
      probeWrite: () => stores.probeWrite(),
    };
    for (const [name, call] of Object.entries(calls)) {
      const { ms, error, value } = await timed(call);
      expect({ name, value, fault: storageFault(error) !== undefined }).toEqual({ name, value: undefined, fault: true });
      expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
    }
    // Giving back a lease is best effort: it fails the same way, and the limiter ignores it.
    const released = await timed(() => stores.limits.release("outage", 0, 1));
    expect(storageFault(released.error)).toBeDefined();
    const id = crypto.randomUUID();
    expect(await stores.trial.consumeTrialRequest(id, 30, Date.now() + 60_000)).toBe(1);
    expect(await stores.trial.markChallengeUsed(id, Date.now() + 60_000)).toBe(true);
  }

  /** The next takes, until "all" comes (within `ms`), and the empty one after it. */
  async function expectAll(stores: StateStores, ms: number, what: string): Promise<void> {
    await pollUntil(() => (stores.keyRevocations.takeRevoked() === "all" ? true : undefined), { ms, intervalMs: 10, what });
    expect(stores.keyRevocations.takeRevoked()).toEqual([]);
  }

  /** Everything works again, for both handles: counts, and a revocation from the other handle. */
  async function expectWorking(stores: StateStores, other: StateStores, what: string): Promise<void> {
    // Each handle reconnects at its first call after its last failed attempt: within a second.
    for (const handle of [stores, other]) {
      await pollUntil(async () => ((await timed(() => handle.ping())).error ? undefined : true), { ms: 10_000, intervalMs: 50, what: `${what}: Redis answers` });
    }
    const slot = Math.floor(Date.now() / 1000);
    expect((await stores.limits.grant("after", 1000, slot, 5, 1000, 1)).granted).toBe(1);
    expect(await stores.trial.consumeTrialRequest(`after-${what}`, 30, Date.now() + 60_000)).toBe(1);
    await stores.ping();
    await stores.probeWrite();
    await other.keyRevocations.onRevoked(`revoked-after-${what}`);
    expect(stores.keyRevocations.takeRevoked()).toEqual([`revoked-after-${what}`]);
  }

  describe("Redis outages", () => {
    /** A state over SQLite and Redis counters at `redisUrl`, and another instance's handle on it. */
    async function twoInstances(redisUrl: string) {
      const dataDir = mkdtempSync(join(tmpdir(), "foodapi-redis-outage-"));
      const prefix = freshPrefix();
      const stores = await withRedis(openSqliteState(dataDir), redisAt(redisUrl), { prefix });
      const other = await withRedis(sqliteStores(openSqliteStateDb(dataDir)), redisAt(redisUrl), { prefix });
      return {
        stores,
        other,
        async close() {
          await stores.close();
          await other.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    }

    test("Redis stopped: every call fails within the bound as a storage fault, revocations say all; started: all works again", async () => {
      const { stores, other, close } = await twoInstances(url);
      try {
        await expectWorking(stores, other, "before");
        await server!.stop();
        try {
          await expectFaults(stores);
          // Twice: the second round meets a client that knows it is disconnected, and fails at once.
          await expectFaults(stores);
          await expectAll(stores, 1000, "the subscriber's loss noticed");
          await expectAll(other, 1000, "the other subscriber's loss noticed");
          // A revocation during the outage: committed in the state store, so announcing it does not fail.
          const announced = await timed(() => other.keyRevocations.onRevoked("revoked-during"));
          expect(announced.error).toBeUndefined();
          expect(announced.ms).toBeLessThan(BOUND_MS + SLACK_MS);
        } finally {
          await server!.start();
        }
        // Messages published while a subscriber was away are lost to it: "all" once it is back.
        await expectAll(stores, 5000, "resubscribed after the restart");
        await expectAll(other, 5000, "the other resubscribed after the restart");
        await expectWorking(stores, other, "after");
      } finally {
        await close();
      }
    });

    test("Redis silent (connections open, no answers): calls fail within the bound, the subscriber notices; answering again: all works again", async () => {
      const proxy = freezableProxy(server!.port);
      const { stores, other, close } = await twoInstances(proxy.url);
      try {
        await expectWorking(stores, other, "before");
        proxy.freeze();
        try {
          await expectFaults(stores);
          await expectFaults(stores);
          // The heartbeat: a ping a second, given a second to answer.
          await expectAll(stores, 3000, "the silent subscriber noticed");
          await expectAll(other, 3000, "the other silent subscriber noticed");
        } finally {
          proxy.thaw();
        }
        await expectAll(stores, 5000, "resubscribed after the silence");
        await expectAll(other, 5000, "the other resubscribed after the silence");
        await expectWorking(stores, other, "after");
      } finally {
        await close();
        proxy.stop();
      }
    });

    test("through the app: 503 with Retry-After while Redis is stopped, never a 200 past the limit; 200 again once it is back", async () => {
      const counters = await openRedisCounters(redisAt(url), { prefix: freshPrefix() });
      const t = await createTestApp({ stores: (sqlite) => stateWithCounters(sqlite, counters), env: { FOODAPI_FREE_LIMIT: "3/1m" } });
      try {
        const { key } = await t.issueKey();
        const search = () => t.request("/v1/foods?q=apple&limit=1", { headers: { "x-api-key": key } });
        expect((await search()).status).toBe(200);
        expect((await t.request("/healthz")).status).toBe(200);
        await server!.stop();
        try {
          for (let i = 0; i < 5; i++) {
            const response = await search();
            expect(response.status).toBe(503);
            expect(response.headers.get("retry-after")).toBe("5");
            expect(((await response.json()) as { code: string }).code).toBe("SERVICE_UNAVAILABLE");
          }
          const health = await t.request("/healthz");
          expect(health.status).toBe(503);
        } finally {
          await server!.start();
        }
        // The restarted server kept nothing (no persistence in the tests): the window starts afresh, which
        // a window may (app/state/redis-state.ts); a trial token's life may not (the tests below).
        await pollUntil(async () => ((await search()).status === 200 ? true : undefined), { ms: 10_000, intervalMs: 100, what: "a 200 after the restart" });
        expect((await search()).status).toBe(200);
        expect((await search()).status).toBe(200);
        expect((await search()).status).toBe(429);
        // /healthz probes at most once a second: it recovers within a few.
        await pollUntil(async () => ((await t.request("/healthz")).status === 200 ? true : undefined), { ms: 5000, intervalMs: 200, what: "/healthz 200 again" });
        expect(t.errors.map(String)).toEqual([expect.stringContaining("storage fault REDIS_"), expect.stringContaining("storage recovered")]);
      } finally {
        await t.close();
        counters.close();
      }
    });
  });

  describe("a Redis restart and what must outlive it: a trial token's 30 requests, a challenge solution's one use", () => {
    for (const persistent of [false, true]) {
      test(`${persistent ? "with appendonly yes" : "keeping nothing (--save '' --appendonly no)"}: 26 requests used, then 4 more and 429; the redeemed solution still 403`, async () => {
        const redis = persistent ? await startRedis({ persistent: true }) : server!;
        const counters = await openRedisCounters(redisAt(redis.url), { prefix: freshPrefix() });
        const t = await createTestApp({ stores: (state) => stateWithCounters(state, counters), env: { FOODAPI_TRIAL_IP_LIMIT: "1000/1h" } });
        try {
          const challengeToken = await solveToWidgetPayload((await (await t.request("/v1/trial-challenge")).json()) as Challenge);
          const issued = await t.request("/v1/trial-token", jsonPost({ challengeToken }));
          expect(issued.status).toBe(201);
          const { token } = (await issued.json()) as { token: string };
          const use = () => t.request("/v1/food-groups", { headers: { authorization: `Bearer ${token}` } });
          const used = 26;
          for (let i = 0; i < used; i++) expect((await use()).status).toBe(200);

          await redis.stop();
          await redis.start();
          // The per-IP limit of the trial routes is a window in Redis: its connection must be back first.
          await pollUntil(async () => ((await timed(() => counters.ping())).error ? undefined : true), { ms: 10_000, intervalMs: 50, what: "Redis answering again" });

          for (let i = used + 1; i <= TRIAL_TOKEN_REQUESTS; i++) {
            const response = await use();
            expect({ i, status: response.status, left: response.headers.get("ratelimit") }).toEqual({
              i,
              status: 200,
              left: expect.stringMatching(new RegExp(`^"trial";r=${TRIAL_TOKEN_REQUESTS - i};`)),
            });
          }
          const over = await use();
          expect(over.status).toBe(429);
          expect(((await over.json()) as { code: string }).code).toBe("TRIAL_QUOTA_EXHAUSTED");
          const replay = await t.request("/v1/trial-token", jsonPost({ challengeToken }));
          expect(replay.status).toBe(403);
          expect(((await replay.json()) as { code: string }).code).toBe("CHALLENGE_FAILED");
        } finally {
          await t.close();
          counters.close();
          if (persistent) await redis.stop();
        }
      });
    }
  });

  /**
   * A TCP proxy to the Redis server that can stop passing bytes either way while keeping every connection
   * open: a server that hangs, or a network that drops packets without a reset.
   */
  function freezableProxy(port: number) {
    let frozen = false;
    type Client = { upstream?: import("bun").Socket<undefined>; pending: Uint8Array[] };
    const listener = Bun.listen<Client>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        async open(client) {
          client.data = { pending: [] };
          client.data.upstream = await Bun.connect({
            hostname: "127.0.0.1",
            port,
            socket: {
              data: (_, chunk) => void (frozen || client.write(chunk)),
              close: () => void client.end(),
              error: () => void client.end(),
            },
          });
          for (const chunk of client.data.pending.splice(0)) client.data.upstream.write(chunk);
        },
        data(client, chunk) {
          if (frozen) return;
          if (client.data.upstream) client.data.upstream.write(chunk);
          else client.data.pending.push(new Uint8Array(chunk));
        },
        close: (client) => void client.data.upstream?.end(),
        error: (client) => void client.data.upstream?.end(),
      },
    });
    return {
      url: `redis://127.0.0.1:${listener.port}`,
      freeze: () => void (frozen = true),
      thaw: () => void (frozen = false),
      stop: () => listener.stop(true),
    };
  }
}
