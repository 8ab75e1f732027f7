import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { GRAMS_MAX } from "../../src/catalog/model";
import { analyzeRecipe } from "../../src/analysis/service";
import type { AnalyzedLine } from "../../src/analysis/model";
import { catalogAnalysis } from "./catalog-analysis";

/**
 * Bad input (decisions §16, issue #30): a hostile line gives a line that does not count, never a negative,
 * infinite or absurd weight, never a throw; and a stream of distinct lines does not grow memory.
 */
async function analyze(lines: string[]) {
  const { analysis } = await catalogAnalysis();
  return analyzeRecipe(analysis, { lines, servings: 1, nutrients: ["208"] });
}

/** An item's numbers are finite, not negative, and its grams within a recipe's reach. */
function expectSane(item: AnalyzedLine) {
  expect(Number.isFinite(item.grams)).toBe(true);
  expect(item.grams).toBeGreaterThanOrEqual(0);
  expect(item.grams).toBeLessThanOrEqual(GRAMS_MAX);
  expect(item.confidence).toBeGreaterThanOrEqual(0);
  expect(item.confidence).toBeLessThanOrEqual(1);
  if (item.quantity !== null) {
    expect(Number.isFinite(item.quantity)).toBe(true);
    expect(item.quantity).toBeGreaterThan(0);
  }
  if (item.status === "unmatched") expect(item.grams).toBe(0);
}

const HOSTILE = [
  "1/0 cup sugar",
  "1e309 g sugar",
  `${"9".repeat(150)} g sugar`,
  `${"9".repeat(150)} eggs`,
  "1 cup sugar\u0000",
  "\u0000\u0000\u0000",
  "1 cup \u202esugar\u202c",
  "\u2066\u2067 2 eggs \u2069",
  "🍕🍕🍕",
  "1 cup 🦄 tears",
  "2-1 eggs",
  "-2 cups sugar",
  "0 cups sugar",
  "Infinity g butter",
  "NaN cups milk",
  "1e5 cups flour",
  "100000 eggs",
  "99999 lb beef",
  "1/3/4 cup milk",
  "1 - 0 cups milk",
  "((((((((((1 cup",
  ")))) 2 cups sugar ((((",
  "#00000",
  "#01001",
  "# 01001 1 cup",
  "1 cup \" OR 1=1 --",
  "<script>alert(1)</script>",
  "%s%s%s%n",
  "\\u0000 cup sugar",
  "ₓ ⅟ ↉ cup sugar",
  "1\u2044 cup sugar",
  "1 cup flour\r\n2 cups sugar",
];

describe("hostile lines", () => {
  test.each(HOSTILE)("%p: an item that makes sense, no throw", async (line) => {
    const { items, totalGrams, totals } = await analyze([line]);
    expect(items.length).toBe(1);
    expectSane(items[0]!);
    expect(Number.isFinite(totalGrams)).toBe(true);
    for (const total of totals) if (total.value !== null) expect(Number.isFinite(total.value)).toBe(true);
  });

  test.each(["1/0 cup sugar", "1e309 g sugar", `${"9".repeat(150)} g sugar`, `${"9".repeat(150)} eggs`, "2-1 eggs", "-2 cups sugar", "100000 eggs", "99999 lb beef"])(
    "%p does not count: unmatched for its quantity",
    async (line) => {
      expect((await analyze([line])).items[0]).toMatchObject({ status: "unmatched", reason: "quantity", grams: 0 });
    },
  );

  test.each(["1 cup sugar\u0000", "\u0000\u0000\u0000", "1 cup \u202esugar\u202c", "\u2066\u2067 2 eggs \u2069", "🍕🍕🍕", "1 cup 🦄 tears"])(
    "%p does not count: unmatched for its food",
    async (line) => {
      expect((await analyze([line])).items[0]).toMatchObject({ status: "unmatched", reason: "food", grams: 0, food: null });
    },
  );

  test("any string of up to 200 code points gives a sane item", async () => {
    const { analysis } = await catalogAnalysis();
    const pieces = ["1", "½", "/", "-", " ", "cup", "g", "(", ")", "14.5 oz", "can", "egg", "sugar", "#11282", "\u0000", "\u202e", "e309", "9999", "dozen", "a", "to"];
    const line = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 200 }),
      fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join(" ").slice(0, 200)),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        const answer = analyzeRecipe(analysis, { lines, servings: 1, nutrients: ["208", "203"] });
        expect(answer.items.length).toBe(lines.length);
        for (const item of answer.items) expectSane(item);
        expect(Number.isFinite(answer.totalGrams)).toBe(true);
      }),
      { numRuns: 300, seed: 30 },
    );
  });
});

describe("memory under a stream of distinct lines", () => {
  test("the caches stay within their bytes", async () => {
    const { analysis } = await catalogAnalysis();
    for (let batch = 0; batch < 60; batch++) {
      const lines = Array.from({ length: 100 }, (_, i) => `${batch * 100 + i + 1} g ${i % 2 ? "sugar" : "flour"} ${"x".repeat(i)}`);
      analyzeRecipe(analysis, { lines, servings: 1, nutrients: undefined });
    }
    // 6,000 distinct lines of up to ~120 characters: kept ones are dropped oldest first.
    expect(analysis.lines.size).toBeLessThan(6000);
    expect(analysis.lines.weight).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});
