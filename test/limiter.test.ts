import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStateDb } from "../src/db/state-db";
import { createLimiter } from "../src/limits/limiter";
import { createSqliteLimitStore } from "../src/limits/sqlite-store";

/** Two limiters on one state database stand for two processes, each with its own leases. */
function twoProcesses(clock: () => number) {
  const state = openStateDb(mkdtempSync(join(tmpdir(), "foodapi-limiter-")));
  return { state, limiters: [createLimiter(createSqliteLimitStore(state), clock), createLimiter(createSqliteLimitStore(state), clock)] };
}

describe("the limiter", () => {
  test("never admits more than N in any window, across processes, under a hot key", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const { state, limiters } = twoProcesses(() => now);
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
    state.sqlite.close();
  });

  test("unused leases are given back: the counts then equal what was served", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const { state, limiters } = twoProcesses(() => now);
    const spec = { limit: 100_000, windowSeconds: 3600 };
    let served = 0;
    for (let i = 0; i < 37; i++) if ((await limiters[i % 2]!.consume("key:k", spec)).allowed) served++;
    const counted = () => state.sqlite.query<{ n: number }, []>("SELECT coalesce(sum(count), 0) AS n FROM rate_counters").get()!.n;
    expect(counted()).toBeGreaterThanOrEqual(served);
    for (const limiter of limiters) limiter.releaseLeases({ all: true });
    expect(counted()).toBe(served);
    state.sqlite.close();
  });

  test("a light user's remaining count goes down by exactly one per request", async () => {
    let now = Date.parse("2026-05-01T00:00:00Z");
    const { state, limiters } = twoProcesses(() => now);
    const spec = { limit: 1000, windowSeconds: 3600 };
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      remaining.push((await limiters[i % 2]!.consume("key:light", spec)).remaining);
      now += 90_000; // one request every 90 s: each in a new slot
    }
    expect(remaining).toEqual([999, 998, 997, 996, 995]);
    state.sqlite.close();
  });
});
