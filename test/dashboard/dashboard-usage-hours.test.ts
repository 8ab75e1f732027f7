import { describe, expect, test } from "bun:test";
import { HOUR_MS, hourSlots, scaleTicks, scaleTop, USAGE_HOURS, usageTotals } from "../../src/dashboard/web/usage-hours";
import { USAGE_HOURS as SERVER_USAGE_HOURS, usageSince } from "../../src/usage/service";

/** The dashboard chart's hours (plain functions of its browser code), against the server's window. */
const now = Date.parse("2026-11-23T12:34:56.789Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

describe("the usage chart's hours", () => {
  test("168 hours, oldest first, from the server's first hour to the current one; each answered hour on its slot", () => {
    expect(USAGE_HOURS).toBe(SERVER_USAGE_HOURS);
    const first = usageSince(now);
    const items = [
      { hour: iso(first), allowed: 2, refused: 0 },
      { hour: "2026-11-23T09:00:00Z", allowed: 0, refused: 5 },
      { hour: "2026-11-23T12:00:00Z", allowed: 7, refused: 1 },
    ];
    const slots = hourSlots(items, now);
    expect(slots.length).toBe(168);
    expect(slots[0]!.start).toBe(first);
    expect(iso(slots[167]!.start)).toBe("2026-11-23T12:00:00Z");
    for (let i = 1; i < slots.length; i++) expect(slots[i]!.start - slots[i - 1]!.start).toBe(HOUR_MS);
    const filled = slots.filter((slot) => slot.usage).map((slot) => [iso(slot.start), slot.usage]);
    expect(filled).toEqual(items.map((item) => [item.hour, item]));
  });

  test("a browser clock behind the server's still shows the server's newest hour", () => {
    const behind = now - 2 * HOUR_MS;
    const slots = hourSlots([{ hour: "2026-11-23T12:00:00Z", allowed: 1, refused: 0 }], behind);
    expect(iso(slots[167]!.start)).toBe("2026-11-23T12:00:00Z");
    expect(slots[167]!.usage).toEqual({ hour: "2026-11-23T12:00:00Z", allowed: 1, refused: 0 });
  });

  test("totals, and a round top for the scale", () => {
    expect(usageTotals([])).toEqual({ allowed: 0, refused: 0 });
    expect(usageTotals([{ hour: "x", allowed: 3, refused: 1 }, { hour: "y", allowed: 4, refused: 2 }])).toEqual({ allowed: 7, refused: 3 });
    expect([0, 1, 2, 3, 7, 10, 11, 99, 100, 1001].map(scaleTop)).toEqual([1, 1, 2, 5, 10, 10, 20, 100, 100, 2000]);
  });

  test("the scale's labels are whole requests, from 0 to the top, evenly spaced", () => {
    expect([1, 2, 5, 10, 50, 2000].map(scaleTicks)).toEqual([[0, 1], [0, 1, 2], [0, 1, 2, 3, 4, 5], [0, 5, 10], [0, 25, 50], [0, 1000, 2000]]);
    for (const busiest of [0, 1, 3, 4, 5, 6, 9, 17, 49, 51, 123, 4999]) {
      const ticks = scaleTicks(scaleTop(busiest));
      expect([busiest, ticks.every(Number.isInteger), ticks[0], ticks.at(-1)]).toEqual([busiest, true, 0, scaleTop(busiest)]);
    }
  });
});
