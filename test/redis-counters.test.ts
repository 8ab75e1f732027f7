import { afterAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS, RedisUrlInvalid } from "../src/db/redis";
import { openRedisCounters, stateWithCounters, withRedis } from "../src/db/redis-state";
import { openSqliteState, sqliteStores } from "../src/db/sqlite-state";
import { openStateDb } from "../src/db/state-db";
import type { StateStores } from "../src/db/state-stores";
import { storageFault } from "../src/db/storage-fault";
import { TRIAL_EXPIRY_MARGIN_MS } from "../src/trial/redis-store";
import type { ContractBackend } from "./contracts";
import { accountStoreContract } from "./contracts/account-store";
import { registerChecks } from "./contracts/backend";
import { T0 } from "./contracts/fixtures";
import { healthContract } from "./contracts/health";
import { keyStoreContract } from "./contracts/key-store";
import { limitStoreChecks } from "./contracts/limit-store";
import { sessionStoreContract } from "./contracts/session-store";
import { trialStoreChecks } from "./contracts/trial-store";
import { redisMissing, type StoreServer, startRedis } from "./helpers/store-servers";
import { storeThreadPool } from "./helpers/store-threads";
import { createTestApp } from "./helpers/test-app";
import { pollUntil, readStream } from "./helpers/wait";

/**
 * The Redis counters (db/redis-state.ts) against the store contracts and through an outage: SQLite for
 * accounts, sessions, keys and secrets; rate limits, trial counters and revocations in a throwaway Redis
 * server. Each opened state has a key prefix (and so a revocation channel) of its own.
 */
const missing = redisMissing();
const server: StoreServer | undefined = missing ? undefined : await startRedis();
afterAll(async () => {
  await server?.stop();
});

/** What any call may take before it has answered or failed (db/redis.ts), and some slack for a busy machine. */
const BOUND_MS = REDIS_CONNECT_TIMEOUT_MS + REDIS_COMMAND_TIMEOUT_MS;
const SLACK_MS = 500;

let prefixes = 0;
const freshPrefix = () => `test:${process.pid}:${++prefixes}:`;

/**
 * Checks that hold for stores that must be swept: Redis's records expire by themselves and `sweep` returns 0
 * (see the checks that replace them below).
 */
const SWEEP_CHECKS = new Set([
  "sweep deletes only counters no window counts any more, at most batch a call, and counts them",
  "sweepExpired forgets expired usage and challenges only, at most batch of each a call, and counts them",
]);
const withoutSweep = <C extends Record<string, unknown>>(checks: C): C => {
  const kept = Object.fromEntries(Object.entries(checks).filter(([name]) => !SWEEP_CHECKS.has(name))) as C;
  // A renamed check must not silently stop running here.
  if (Object.keys(checks).length - Object.keys(kept).length !== 1) throw new Error("a sweep check to leave out is not there: renamed?");
  return kept;
};

if (missing) {
  test.skip(`Redis counters: ${missing}`, () => {});
} else {
  const url = server!.url;
  const threads = storeThreadPool(new URL("./helpers/sqlite-store-thread.ts", import.meta.url));

  const backend: ContractBackend = {
    name: "SQLite + Redis counters",
    async open() {
      const dataDir = mkdtempSync(join(tmpdir(), "foodapi-redis-contracts-"));
      const prefix = freshPrefix();
      const handles: StateStores[] = [];
      const lent: Array<{ release(): Promise<void> }> = [];
      const open = async (state: StateStores) => {
        const handle = await withRedis(state, url, { prefix });
        handles.push(handle);
        return handle;
      };
      const stores = await open(openSqliteState(dataDir));
      return {
        stores,
        peer: () => open(sqliteStores(openStateDb(dataDir))),
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
  registerChecks("TrialStore", backend, withoutSweep(trialStoreChecks));
  healthContract(backend);
  afterAll(() => threads.terminate());

  /** A plain client, to look at what the stores left in Redis. */
  const inspect = async () => {
    const client = new RedisClient(url, { autoReconnect: false, enableOfflineQueue: false });
    await client.connect();
    return client;
  };

  describe("Redis counters expire by themselves (instead of the sweep checks)", () => {
    test("limits: sweep returns 0; a bucket's hash lives (slots + 1) slots after its last grant, then is gone", async () => {
      const prefix = freshPrefix();
      const counters = await openRedisCounters(url, { prefix });
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

    test("trial: sweepExpired returns 0; challenges and usage live until a margin after their expiry", async () => {
      const prefix = freshPrefix();
      const counters = await openRedisCounters(url, { prefix });
      const state = sqliteStores(openStateDb(mkdtempSync(join(tmpdir(), "foodapi-redis-trial-"))));
      const trial = counters.trialCounters(state.trial);
      const raw = await inspect();
      try {
        const inAnHour = Date.now() + 3600_000;
        expect(await trial.markChallengeUsed("c", inAnHour)).toBe(true);
        expect(await trial.consumeTrialRequest("t", 30, inAnHour)).toBe(1);
        // Expired already by this clock (the contract's fixed times are): kept for the margin.
        expect(await trial.markChallengeUsed("old", T0)).toBe(true);
        const ttl = async (key: string) => (await raw.send("PTTL", [`${prefix}${key}`])) as number;
        for (const key of ["challenge:c", "trial:t"]) {
          expect(await ttl(key)).toBeGreaterThan(3600_000 + TRIAL_EXPIRY_MARGIN_MS - 5000);
          expect(await ttl(key)).toBeLessThanOrEqual(3600_000 + TRIAL_EXPIRY_MARGIN_MS);
        }
        expect(await ttl("challenge:old")).toBeGreaterThan(TRIAL_EXPIRY_MARGIN_MS - 5000);
        expect(await ttl("challenge:old")).toBeLessThanOrEqual(TRIAL_EXPIRY_MARGIN_MS);
        expect(await trial.sweepExpired(inAnHour + 3600_000, 100)).toBe(0);
        expect(await trial.markChallengeUsed("c", inAnHour)).toBe(false);
      } finally {
        raw.close();
        counters.close();
        state.close();
      }
    });
  });

  describe("Redis counters across instances", () => {
    test("60 requests with one trial token from two instances at once: exactly 30 counted", async () => {
      const prefix = freshPrefix();
      const [a, b] = [await openRedisCounters(url, { prefix }), await openRedisCounters(url, { prefix })];
      try {
        const secretless = { secret: () => "", markChallengeUsed: () => true, consumeTrialRequest: () => null, trialRequestsUsed: () => 0, sweepExpired: () => 0 };
        const trials = [a.trialCounters(secretless), b.trialCounters(secretless)];
        const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => trials[i % 2]!.consumeTrialRequest("jti", 30, Date.now() + 3600_000)));
        expect(counts.filter((n) => n !== null).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
        expect(counts.filter((n) => n === null)).toHaveLength(30);
      } finally {
        a.close();
        b.close();
      }
    });

    test("a revocation announced by another process reaches this one's takeRevoked within a second", async () => {
      const prefix = freshPrefix();
      const here = await openRedisCounters(url, { prefix });
      try {
        expect(here.keyRevocations.takeRevoked()).toEqual([]);
        const script = `
          const { openRedisCounters } = await import(${JSON.stringify(new URL("../src/db/redis-state.ts", import.meta.url).pathname)});
          const there = await openRedisCounters(process.argv[1], { prefix: process.argv[2] });
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

  test("a URL that is not redis:// or rediss:// is refused before connecting, without repeating it", async () => {
    for (const bad of ["postgres://user:secret@localhost/db", "http://localhost:6379", "localhost:6379", "not a url", "redis://"]) {
      const opened = openRedisCounters(bad);
      await expect(opened).rejects.toBeInstanceOf(RedisUrlInvalid);
      await expect(opened).rejects.not.toThrow(/secret/);
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

  /** Every counter call fails, each within the bound, with an error the app answers with 503. */
  async function expectFaults(stores: StateStores): Promise<void> {
    const calls: Record<string, () => unknown> = {
      grant: () => stores.limits.grant("outage", 10, Math.floor(Date.now() / 1000), 5, 1000, 1),
      consumeTrialRequest: () => stores.trial.consumeTrialRequest("outage", 30, Date.now() + 60_000),
      markChallengeUsed: () => stores.trial.markChallengeUsed("outage", Date.now() + 60_000),
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
      const stores = await withRedis(openSqliteState(dataDir), redisUrl, { prefix });
      const other = await withRedis(sqliteStores(openStateDb(dataDir)), redisUrl, { prefix });
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
      const counters = await openRedisCounters(url, { prefix: freshPrefix() });
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
        // The restarted server kept nothing (no persistence in the tests): the window starts afresh.
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
