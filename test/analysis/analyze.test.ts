import { describe, expect, test } from "bun:test";
import { analyzeRecipe } from "../../src/analysis/service";
import { oracleFoodValues } from "../helpers/sr28-oracle";
import { catalogAnalysis } from "./catalog-analysis";

/**
 * The answer of `analyzeRecipe` (decisions §16): its exact shape, items in request order, and totals that
 * are the sums of value × grams / 100 over matched lines, checked against SR28's own files read by the
 * test oracle.
 */
const LINES = ["1 cup chopped onion", "2 tbsp olive oil", "1 (14.5 oz) can diced tomatoes", "salt and pepper to taste", "1 cup unicorn tears", "1 bay leaf"];

async function analyze(lines: string[], options: { servings?: number; nutrients?: string[] } = {}) {
  const { analysis } = await catalogAnalysis();
  return analyzeRecipe(analysis, { lines, servings: options.servings ?? 1, nutrients: options.nutrients });
}

describe("the answer's shape", () => {
  test("top level: items, servings, totalGrams, totals, perServing", async () => {
    const answer = await analyze(LINES, { servings: 4 });
    expect(Object.keys(answer).sort()).toEqual(["items", "perServing", "servings", "totalGrams", "totals"]);
    expect(Object.keys(answer.perServing).sort()).toEqual(["grams", "nutrients"]);
    expect(answer.servings).toBe(4);
  });

  test("items in request order, one per line, each line as sent", async () => {
    const lines = [...LINES, "  2 eggs  "];
    const answer = await analyze(lines);
    expect(answer.items.map((i) => i.line)).toEqual(lines);
  });

  test("a matched item: exactly the spec's fields", async () => {
    const [item] = (await analyze(["1 cup chopped onion"])).items;
    expect(item).toEqual({
      line: "1 cup chopped onion",
      status: "matched",
      quantity: 1,
      unit: "cup",
      food: { foodNumber: "11282", name: "Onions, raw" },
      portion: { seq: 1, amount: 1, description: "cup, chopped", grams: 160 },
      grams: 160,
      confidence: expect.any(Number),
      alternatives: expect.any(Array),
    });
    expect(item!.confidence).toBeGreaterThan(0.5);
    expect(item!.confidence).toBeLessThanOrEqual(1);
    expect(item!.alternatives.length).toBeLessThanOrEqual(3);
    for (const alternative of item!.alternatives) expect(Object.keys(alternative).sort()).toEqual(["foodNumber", "name"]);
  });

  test("unmatched items carry their reason, 0 grams, and the food when one was found", async () => {
    const [quantity, food, unit] = (await analyze(["salt and pepper to taste", "1 cup unicorn tears", "1 bay leaf"])).items;
    expect(quantity).toMatchObject({ status: "unmatched", reason: "quantity", food: { foodNumber: "02047", name: "Salt, table" }, grams: 0, quantity: null, portion: null });
    expect(food).toMatchObject({ status: "unmatched", reason: "food", food: null, grams: 0, confidence: 0, alternatives: [], quantity: 1, unit: "cup" });
    expect(unit).toMatchObject({ status: "unmatched", reason: "unit", food: { foodNumber: "02004" }, grams: 0, unit: "leaf" });
  });

  test("portion is null for a mass", async () => {
    const [item] = (await analyze(["200 g butter"])).items;
    expect(item).toMatchObject({ status: "matched", grams: 200, unit: "g", portion: null });
  });
});

describe("totals", () => {
  test("each is the sum of value × grams / 100 over matched lines, rounded to the nutrient's decimals", async () => {
    const answer = await analyze(LINES, { servings: 3 });
    const matched = answer.items.filter((i) => i.status === "matched");
    expect(matched.length).toBe(3);
    expect(answer.totalGrams).toBeCloseTo(matched.reduce((sum, i) => sum + i.grams, 0), 6);

    const sums = new Map<string, { value: number; decimals: number }>();
    for (const item of matched) {
      for (const v of oracleFoodValues(item.food!.foodNumber)) {
        const sum = sums.get(v.nutrientNumber) ?? { value: 0, decimals: v.decimals };
        sum.value += (Number(v.text) * item.grams) / 100;
        sums.set(v.nutrientNumber, sum);
      }
    }
    expect(answer.totals.length).toBe(150);
    let compared = 0;
    for (const total of answer.totals) {
      const expected = sums.get(total.number);
      if (expected === undefined) {
        expect([total.number, total.value]).toEqual([total.number, null]);
        continue;
      }
      // Rounded sums of the same products: equal to the last decimal, but for a sum that lands on a half.
      expect(Math.abs(total.value! - expected.value)).toBeLessThanOrEqual(0.5 * 10 ** -expected.decimals + 1e-9);
      expect(Number(total.value!.toFixed(expected.decimals))).toBe(total.value!);
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
    const energy = answer.totals.find((t) => t.number === "208")!;
    expect(energy).toMatchObject({ name: "Energy", unit: "kcal" });
  });

  test("per serving: the totals and grams divided by servings", async () => {
    const answer = await analyze(LINES, { servings: 4 });
    expect(answer.perServing.grams).toBeCloseTo(answer.totalGrams / 4, 1);
    const energy = answer.totals.find((t) => t.number === "208")!.value!;
    expect(answer.perServing.nutrients.find((t) => t.number === "208")!.value).toBeCloseTo(energy / 4, 0);
  });

  test("unmatched lines are left out of the totals", async () => {
    const alone = await analyze(["1 cup chopped onion"]);
    const withOthers = await analyze(["1 cup chopped onion", "1 cup unicorn tears", "salt to taste", "1 bay leaf"]);
    expect(withOthers.totals).toEqual(alone.totals);
    expect(withOthers.totalGrams).toBe(alone.totalGrams);
  });

  test("a nutrient no matched food has is null; with no matched line every total is null", async () => {
    const none = await analyze(["1 cup unicorn tears"]);
    expect(none.totalGrams).toBe(0);
    expect(none.totals.every((t) => t.value === null)).toBe(true);
    // Onions have no vitamin D (324) value in SR28? Whatever they lack is null, never 0.
    const onion = await analyze(["1 cup chopped onion"]);
    const had = new Set(oracleFoodValues("11282").map((v) => v.nutrientNumber));
    for (const total of onion.totals) expect([total.number, total.value === null]).toEqual([total.number, !had.has(total.number)]);
  });

  test("nutrients selects the totals listed, in SR order; unknown numbers are ignored", async () => {
    const answer = await analyze(["1 cup chopped onion"], { nutrients: ["204", "208", "999", "203"] });
    expect(answer.totals.map((t) => t.number)).toEqual(["208", "203", "204"]);
    expect(answer.perServing.nutrients.map((t) => t.number)).toEqual(["208", "203", "204"]);
    expect((await analyze(["1 cup chopped onion"], { nutrients: [] })).totals).toEqual([]);
  });
});

describe("the analysed-lines cache", () => {
  test("a line is kept the second time it is analysed, not the first, and answers the same either way", async () => {
    const { analysis } = await catalogAnalysis();
    // Lines no other test sends: a fresh quantity each.
    const lines = ["37 g chopped walnuts", "41 g grated parmesan cheese"];
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await analyze(lines, { nutrients: ["208"] }));
      expect([i, lines.map((line) => analysis.lines.get(line) !== undefined)]).toEqual([i, i === 0 ? [false, false] : [true, true]]);
    }
    expect(answers[1]).toEqual(answers[0]!);
    expect(answers[2]).toEqual(answers[0]!);
    expect(answers[0]!.items.map((item) => [item.status, item.grams])).toEqual([["matched", 37], ["matched", 41]]);
  });
});
