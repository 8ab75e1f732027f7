import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RateSpec } from "../../src/platform/config/config";
import { createLimiter, LEASE_TTL_MS, slotsFor } from "../../src/limits/limiter";
import type { LimitStore } from "../../src/limits/store";
import { openTestState } from "../helpers/test-backend";
import { pollUntil } from "../helpers/wait";

/**
 * Two limiters on one state stand for two processes, each with its own leases and its own connections
 * (on the backend FOODAPI_TEST_BACKEND names: SQLite, or Redis's counters).
 */
async function twoProcesses(clock: () => number) {
  const state = await openTestState(mkdtempSync(join(tmpdir(), "foodapi-limiter-")));
  const other = await state.peer();
  const stores = [state.stores.limits, other.limits];
  /**
   * Requests the store counts in the window that holds `now`: a grant of none, through each process's
   * connections in turn, so that what either sent before (a lease given back) has been applied.
   */
  const counted = async (bucket: string, spec: RateSpec, now: number) => {
    const slots = slotsFor(spec);
    const slotMs = (spec.windowSeconds * 1000) / slots;
    let used = 0;
    for (const limits of stores) used = (await limits.grant(bucket, spec.limit, Math.floor(now / slotMs), slots, slotMs, 0)).used;
    return used;
  };
  return { state, counted, limiters: stores.map((limits) => createLimiter(limits, clock)) };
}

/** The store as it is, with the grants asked of it counted (what a refused client costs the store). */
function countingGrants(store: LimitStore): { store: LimitStore; grants: () => number } {
  let grants = 0;
  const counted: LimitStore = {
    grant: (...args) => {
      grants++;
      return store.grant(...args);
    },
    release: (...args) => store.release(...args),
    forget: (buckets) => store.forget(buckets),
    sweep: (now, batch) => store.sweep(now, batch),
  };
  return { store: counted, grants: () => grants };
}

/**
 * The same store answering a macrotask later, as one over the network does whatever the backend under it
 * (SQLite answers at once): a grant is then a promise, and what the limiter does meanwhile shows.
 */
function overTheNetwork(store: LimitStore): LimitStore {
  const later = <T>(call: () => T | Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => Promise.resolve().then(call).then(resolve, reject), 0));
  return {
    grant: (...args) => later(() => store.grant(...args)),
    release: (...args) => later(() => store.release(...args)),
    forget: (buckets) => later(() => store.forget(buckets)),
    sweep: (now, batch) => store.sweep(now, batch),
  };
}

const isPending = (value: unknown): value is Promise<unknown> => value instanceof Promise;

describe("the limiter", () => {
  test("never admits more than N in any window, across processes, under a hot key", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const { state, limiters } = await twoProcesses(() => now);
    const spec = { limit: 200, windowSeconds: 10 };
    const admitted: number[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      now += Math.floor(random() * 3);
      if ((await limiters[random() < 0.5 ? 0 : 1]!.consume("key:hot", spec)).allowed) admitted.push(now);
    }
    let maxInWindow = 0;
    for (let i = 0, j = 0; i < admitted.length; i++) {
      while (admitted[j]! <= admitted[i]! - 10_000) j++;
      maxInWindow = Math.max(maxInWindow, i - j + 1);
    }
    expect(maxInWindow).toBeLessThanOrEqual(200);
    // Leases are conservative but not wasteful: most of the quota is actually served.
    const windows = (admitted.at(-1)! - admitted[0]!) / 10_000;
    expect(admitted.length).toBeGreaterThan(windows * 200 * 0.6);
    await state.close();
  });

  test("unused leases are given back: the counts then equal what was served", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const { state, counted, limiters } = await twoProcesses(() => now);
    const spec = { limit: 100_000, windowSeconds: 3600 };
    let served = 0;
    for (let i = 0; i < 37; i++) if ((await limiters[i % 2]!.consume("key:k", spec)).allowed) served++;
    expect(await counted("key:k", spec, now)).toBeGreaterThanOrEqual(served);
    for (const limiter of limiters) limiter.releaseLeases({ all: true });
    // Leases are given back without waiting for the store (over the network, a moment later): read the count
    // once it has settled, not at once (on Redis the first read could come before the give-back).
    const settled = await pollUntil(async () => ((await counted("key:k", spec, now)) === served ? true : undefined), {
      ms: 2000,
      what: `the count of key:k at the ${served} requests served`,
    });
    expect(settled).toBe(true);
    await state.close();
  });

  test("giveBack uncounts a request that was allowed, whether it was served from a lease or not", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const { state, counted, limiters } = await twoProcesses(() => now);
    // A small limit (one request per grant) and a large one (leases of several): both end at what was kept.
    for (const spec of [{ limit: 10, windowSeconds: 900 }, { limit: 100_000, windowSeconds: 3600 }]) {
      const bucket = `failures:${spec.limit}`;
      let kept = 0;
      for (let i = 0; i < 30; i++) {
        const limiter = limiters[i % 2]!;
        const result = await limiter.consume(bucket, spec);
        if (i % 3 === 0) await limiter.giveBack(bucket, result);
        else if (result.allowed) kept++;
        now += 7;
      }
      for (const limiter of limiters) limiter.releaseLeases({ all: true });
      // Leases are given back without waiting for the store (over the network, a moment later).
      const settled = await pollUntil(async () => ((await counted(bucket, spec, now)) === kept ? true : undefined), {
        ms: 2000,
        what: `the count of ${bucket} at the ${kept} requests kept`,
      });
      expect(settled).toBe(true);
    }
    await state.close();
  });

  test("a light user's remaining count goes down by exactly one per request", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const { state, limiters } = await twoProcesses(() => now);
    const spec = { limit: 1000, windowSeconds: 3600 };
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      remaining.push((await limiters[i % 2]!.consume("key:light", spec)).remaining);
      now += 90_000; // one request every 90 s: each in a new slot
    }
    expect(remaining).toEqual([999, 998, 997, 996, 995]);
    await state.close();
  });

  test("a client past its quota is refused from memory, not by the store on every request, for at most a lease's life", async () => {
    const start = Date.parse("2026-05-01T00:00:00.100Z");
    let now = start;
    const { state, counted, limiters } = await twoProcesses(() => now);
    const refusing = countingGrants(state.stores.limits);
    const limiter = createLimiter(refusing.store, () => now);
    const spec = { limit: 100, windowSeconds: 3600 };
    for (let i = 0; i < 100; i++) expect((await limiter.consume("key:spent", spec)).allowed).toBe(true);
    const asked = refusing.grants();
    const first = await limiter.consume("key:spent", spec);
    expect(first).toMatchObject({ allowed: false, remaining: 0, limit: 100 });
    expect(refusing.grants()).toBe(asked + 1);
    // A thousand more within the lease's life: the same refusal, no store.
    now += 50;
    for (let i = 0; i < 1000; i++) expect(await limiter.consume("key:spent", spec)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: first.retryAfterSeconds });
    expect(refusing.grants()).toBe(asked + 1);
    // Another process frees a unit (one it gives back): seen once the refusal is a lease's life old.
    await limiters[1]!.giveBack("key:spent", { ...first, allowed: true, slot: Math.floor(start / 60_000) });
    expect(await counted("key:spent", spec, now)).toBe(99);
    expect((await limiter.consume("key:spent", spec)).allowed).toBe(false);
    now += LEASE_TTL_MS;
    expect((await limiter.consume("key:spent", spec)).allowed).toBe(true);
    expect(refusing.grants()).toBe(asked + 2);
    await state.close();
  });

  test("a remembered refusal ends with its slot and with a unit given back here, and refuses only what does not fit", async () => {
    let now = Date.parse("2026-05-01T00:00:00.900Z");
    const { state } = await twoProcesses(() => now);
    const refusing = countingGrants(state.stores.limits);
    const limiter = createLimiter(refusing.store, () => now);
    // A one-second window counts one-second slots: the refusal at .900 holds until 1.000, not 1.100.
    const perSecond = { limit: 64, windowSeconds: 1 };
    for (let i = 0; i < 64; i++) expect((await limiter.consume("key:a", perSecond)).allowed).toBe(true);
    expect((await limiter.consume("key:a", perSecond)).allowed).toBe(false);
    let asked = refusing.grants();
    now += 50;
    await limiter.consume("key:a", perSecond);
    expect(refusing.grants()).toBe(asked);
    now += 100;
    await limiter.consume("key:a", perSecond);
    expect(refusing.grants()).toBe(asked + 1);

    // Given back in this process: the next request asks the store at once.
    const spec = { limit: 64, windowSeconds: 900 };
    const results = [];
    for (let i = 0; i < 64; i++) results.push(await limiter.consume("key:b", spec));
    expect((await limiter.consume("key:b", spec)).allowed).toBe(false);
    await limiter.giveBack("key:b", results[0]!);
    expect((await limiter.consume("key:b", spec)).allowed).toBe(true);

    // All or nothing: 98 of 100 units taken, a batch of 5 refused; a batch of 2 still fits and is counted.
    const units = { limit: 100, windowSeconds: 3600 };
    expect((await limiter.consume("key:batch", units, 98)).allowed).toBe(true);
    expect((await limiter.consume("key:batch", units, 5)).allowed).toBe(false);
    asked = refusing.grants();
    expect((await limiter.consume("key:batch", units, 5)).allowed).toBe(false);
    expect(refusing.grants()).toBe(asked);
    expect(await limiter.consume("key:batch", units, 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(refusing.grants()).toBe(asked + 1);
    // A refused batch with plenty left: a single request still fits, and is counted.
    const large = { limit: 200, windowSeconds: 3600 };
    expect((await limiter.consume("key:large", large, 100)).allowed).toBe(true);
    expect((await limiter.consume("key:large", large, 150)).allowed).toBe(false);
    expect(await limiter.consume("key:large", large)).toMatchObject({ allowed: true, remaining: 99 });
    await state.close();
  });

  test("a small limit (wrong passwords) asks the store on every refusal: another process's reset counts at once", async () => {
    const now = Date.parse("2026-05-01T00:00:00Z");
    const { state, limiters } = await twoProcesses(() => now);
    const refusing = countingGrants(state.stores.limits);
    const limiter = createLimiter(refusing.store, () => now);
    const spec = { limit: 10, windowSeconds: 900 };
    for (let i = 0; i < 10; i++) expect((await limiter.consume("failures:x", spec)).allowed).toBe(true);
    const asked = refusing.grants();
    for (let i = 0; i < 3; i++) expect((await limiter.consume("failures:x", spec)).allowed).toBe(false);
    expect(refusing.grants()).toBe(asked + 3);
    await limiters[1]!.forget(["failures:x"]);
    expect((await limiter.consume("failures:x", spec)).allowed).toBe(true);
    await state.close();
  });

  test("a busy key's requests do not wait for the store: its lease is topped up before it runs out", async () => {
    const now = Date.parse("2026-05-01T00:00:00Z");
    const { state } = await twoProcesses(() => now);
    const counting = countingGrants(overTheNetwork(state.stores.limits));
    const limiter = createLimiter(counting.store, () => now);
    const spec = { limit: 1_000_000, windowSeconds: 3600 };
    let waited = 0;
    let waitedOnceBusy = 0;
    for (let i = 0; i < 12_000; i++) {
      const result = limiter.consume("key:busy", spec);
      if (isPending(result)) {
        waited++;
        if (i >= 6_000) waitedOnceBusy++;
        expect((await result).allowed).toBe(true);
      }
      // Requests arrive over time: the event loop turns between them now and then, as it does in a server.
      if (i % 12 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    // The lease grows from one request to its largest while the first requests wait, then never runs dry.
    expect(waited).toBeGreaterThan(0);
    expect(waitedOnceBusy).toBe(0);
    // ~20 grants of up to 1,024 for 12,000 requests, not one per request.
    expect(counting.grants()).toBeLessThan(30);
    limiter.releaseLeases({ all: true });
    await state.close();
  });

  test("requests that find a lease spent while the next is on its way share that grant, and nothing stays counted unserved", async () => {
    const now = Date.parse("2026-05-01T00:00:00Z");
    const { state, counted } = await twoProcesses(() => now);
    const counting = countingGrants(overTheNetwork(state.stores.limits));
    const limiter = createLimiter(counting.store, () => now);
    const spec = { limit: 1_000_000, windowSeconds: 3600 };
    let served = 0;
    // A lease of some size first, then 200 requests at once (64 connections' worth, and more) with no turn
    // of the event loop between them: the lease is spent and its next grant is on its way.
    for (let i = 0; i < 40; i++) if ((await limiter.consume("key:burst", spec)).allowed) served++;
    const asked = counting.grants();
    const burst = Array.from({ length: 200 }, () => limiter.consume("key:burst", spec));
    expect(burst.filter(isPending).length).toBeGreaterThan(100);
    for (const result of await Promise.all(burst)) if (result.allowed) served++;
    expect(served).toBe(240);
    // Leases grow by doubling, so a few grants in all, not one for each waiting request.
    expect(counting.grants() - asked).toBeLessThanOrEqual(6);
    limiter.releaseLeases({ all: true });
    // What was counted and not served went back (a moment later, over the network): the count is what was served.
    const settled = await pollUntil(async () => ((await counted("key:burst", spec, now)) === served ? true : undefined), {
      ms: 2000,
      what: `the count of key:burst at the ${served} requests served`,
    });
    expect(settled).toBe(true);
    await state.close();
  });
});
