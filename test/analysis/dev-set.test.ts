import { expect, test } from "bun:test";
import { devAccuracy } from "./dev/accuracy";

/** The development set's quality bar (issue #30's): it may not fall below it as the matcher changes. */
test("on the development set, ≥ 90 % of counted lines name an accepted food, ≥ 90 % of those within 15 % of SR28's grams", async () => {
  const { rows, counted, foodRate, gramsRate } = await devAccuracy();
  expect(counted).toBeGreaterThanOrEqual(rows.length * 0.9);
  expect(foodRate).toBeGreaterThanOrEqual(0.9);
  expect(gramsRate).toBeGreaterThanOrEqual(0.9);
});
