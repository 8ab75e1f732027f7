import { expect, test } from "bun:test";
import { pageTouchCost } from "../../bench/lib/page-touch";

// bench/run reports a fresh page's price as the starts' machine state. A fault is dearer than a write to a
// page already there on any Linux; a probe that mapped nothing, or touched the same pages every pass, would
// read all three alike.
test("a fresh page's first write costs more than writing it again", () => {
  const cost = pageTouchCost(4, 1);
  expect(cost.againMicros).toBeGreaterThan(0);
  expect(cost.faultedMicros).toBeGreaterThan(cost.againMicros * 2);
  expect(cost.populatedMicros).toBeGreaterThan(0);
});
