import { describe, expect, test } from "bun:test";
import { HOUR_MS, createUsageRecorder, hourOf } from "../../src/usage/recorder";
import type { UsageDelta, UsageStore } from "../../src/usage/store";

/** The recorder (usage/recorder.ts) over a store that keeps what it is given, with a clock the test moves. */
function recorder(options: { failing?: () => boolean; intervalMs?: number } = {}) {
  const writes: UsageDelta[][] = [];
  const store: UsageStore = {
    add(deltas) {
      if (options.failing?.()) throw new Error("disk full");
      writes.push([...deltas]);
    },
    hours: () => [],
    sweep: () => 0,
  };
  let now = hourOf(Date.UTC(2026, 10, 22, 13)) + 59 * 60_000;
  const errors: unknown[] = [];
  const usage = createUsageRecorder({ store, clock: () => now, logError: (e) => errors.push(e), intervalMs: options.intervalMs ?? 60_000 });
  return { usage, writes, errors, advance: (ms: number) => (now += ms), hour: () => hourOf(now) };
}

const sorted = (deltas: UsageDelta[]) => [...deltas].sort((a, b) => a.keyId.localeCompare(b.keyId) || a.hour - b.hour);

describe("usage recorder", () => {
  test("counts per key and hour in memory; a flush writes them once, one delta per key and hour", async () => {
    const { usage, writes, advance, hour } = recorder();
    const first = hour();
    for (let i = 0; i < 5; i++) usage.count("key_a", true);
    usage.count("key_a", false);
    usage.count("key_b", true);
    advance(2 * 60_000); // into the next hour
    usage.count("key_a", true);
    expect(writes).toEqual([]);
    await usage.flush();
    expect(writes).toHaveLength(1);
    expect(sorted(writes[0]!)).toEqual([
      { keyId: "key_a", hour: first, allowed: 5, refused: 1 },
      { keyId: "key_a", hour: first + HOUR_MS, allowed: 1, refused: 0 },
      { keyId: "key_b", hour: first, allowed: 1, refused: 0 },
    ]);
    await usage.flush();
    expect(writes).toHaveLength(1);
    usage.stop();
  });

  test("a failed write keeps the counts for the next one, added to what came meanwhile", async () => {
    let failing = true;
    const { usage, writes, errors, hour } = recorder({ failing: () => failing });
    usage.count("key_a", true);
    await usage.flush();
    expect(errors).toHaveLength(1);
    usage.count("key_a", false);
    failing = false;
    await usage.flush();
    expect(writes).toEqual([[{ keyId: "key_a", hour: hour(), allowed: 1, refused: 1 }]]);
    usage.stop();
  });

  test("the timer writes by itself after the interval, and only while there is something to write", async () => {
    const { usage, writes } = recorder({ intervalMs: 20 });
    await Bun.sleep(60);
    expect(writes).toEqual([]);
    usage.count("key_a", true);
    const deadline = Date.now() + 2000;
    while (writes.length === 0 && Date.now() < deadline) await Bun.sleep(10);
    expect(writes.flat().map((d) => d.allowed)).toEqual([1]);
    usage.stop();
  });

  test("flushes asked for while one is queued join it: the counts are written once", async () => {
    const { usage, writes } = recorder();
    usage.count("key_a", true);
    await Promise.all([usage.flush(), usage.flush(), usage.flush()]);
    expect(writes.flat()).toHaveLength(1);
    usage.stop();
  });
});
