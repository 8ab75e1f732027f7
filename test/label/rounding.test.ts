import { describe, expect, test } from "bun:test";
import { nutritionLabel } from "../../src/label/label";

// The rounding of decisions §17 (21 CFR 101.9(c)) at and around every boundary, through the label itself:
// a serving of 100 g whose value per 100 g is the amount to round, so that each case reads as
// "amount → display, %DV". The %DV cases are computed by hand from the FDA's Daily Values (2016 rule).

const NUMBERS = {
  calories: "208",
  totalFat: "204",
  saturatedFat: "606",
  transFat: "605",
  cholesterol: "601",
  sodium: "307",
  totalCarbohydrate: "205",
  dietaryFiber: "291",
  totalSugars: "269",
  protein: "203",
  vitaminD: "328",
  calcium: "301",
  iron: "303",
  potassium: "306",
} as const;
type Key = keyof typeof NUMBERS;

/** The line `key` of a 100 g serving whose nutrient has `amount` per 100 g: [display, dv]. */
function shown(key: Key, amount: number, grams = 100): [string, number | null] {
  const label = nutritionLabel({ grams, description: null }, new Map([[NUMBERS[key], amount]]));
  const line = label.lines.find((l) => l.key === key)!;
  return [line.display, line.dv];
}

/** Every case as [amount, display, dv]: the table reads like the regulation's. */
function expectCases(key: Key, cases: [number, string, number | null][]) {
  const actual = cases.map(([amount]) => [amount, ...shown(key, amount)]);
  expect(actual).toEqual(cases);
}

describe("display rounding (21 CFR 101.9(c)) at each boundary", () => {
  test("calories: under 5 → 0, up to and including 50 → nearest 5, above → nearest 10", () => {
    expectCases("calories", [
      [0, "0", null],
      [4.9, "0", null],
      [5, "5", null],
      [7.4, "5", null],
      [7.5, "10", null],
      [47.5, "50", null],
      [50, "50", null],
      [51, "50", null],
      [54.9, "50", null],
      [55, "60", null],
      [101.814, "100", null],
    ]);
  });

  test("total, saturated and trans fat: under 0.5 g → 0, under 5 g → nearest 0.5 g, else nearest 1 g", () => {
    for (const key of ["totalFat", "saturatedFat", "transFat"] as const) {
      const displays = [0.49, 0.5, 0.74, 0.75, 4.24, 4.25, 4.74, 4.75, 4.9, 5, 5.49, 5.5].map((amount) => [amount, shown(key, amount)[0]]);
      expect([key, displays]).toEqual([
        key,
        [[0.49, "0g"], [0.5, "0.5g"], [0.74, "0.5g"], [0.75, "1g"], [4.24, "4g"], [4.25, "4.5g"], [4.74, "4.5g"], [4.75, "5g"], [4.9, "5g"], [5, "5g"], [5.49, "5g"], [5.5, "6g"]],
      ]);
    }
  });

  test("cholesterol: under 2 mg → 0, 2 to 5 mg → <5mg, above → nearest 5 mg", () => {
    expectCases("cholesterol", [
      [1.9, "0mg", 0],
      [2, "<5mg", 1],
      [5, "<5mg", 2],
      [5.1, "5mg", 2],
      [7.4, "5mg", 2],
      [7.5, "10mg", 3],
    ]);
  });

  test("sodium: under 5 mg → 0, 5 to 140 mg → nearest 5 mg, above → nearest 10 mg", () => {
    expectCases("sodium", [
      [4.9, "0mg", 0],
      [5, "5mg", 0],
      [7.5, "10mg", 0],
      [137.5, "140mg", 6],
      [140, "140mg", 6],
      [141, "140mg", 6],
      [144.9, "140mg", 6],
      [145, "150mg", 6],
    ]);
  });

  test("potassium: the same steps as sodium", () => {
    const displays = [4.9, 5, 7.5, 140, 141, 145].map((amount) => shown("potassium", amount)[0]);
    expect(displays).toEqual(["0mg", "5mg", "10mg", "140mg", "140mg", "150mg"]);
  });

  test("carbohydrate, fiber, sugars and protein: under 0.5 g → 0, under 1 g → <1g, else nearest 1 g", () => {
    for (const key of ["totalCarbohydrate", "dietaryFiber", "totalSugars", "protein"] as const) {
      const displays = [0.49, 0.5, 0.99, 1, 1.49, 1.5, 2.5, 4.5].map((amount) => [amount, shown(key, amount)[0]]);
      expect([key, displays]).toEqual([key, [[0.49, "0g"], [0.5, "<1g"], [0.99, "<1g"], [1, "1g"], [1.49, "1g"], [1.5, "2g"], [2.5, "3g"], [4.5, "5g"]]]);
    }
  });

  test("vitamin D and iron to the nearest 0.1, calcium to the nearest 10 mg, a half up", () => {
    expect([0.04, 0.05, 0.15, 0.35, 2].map((amount) => shown("vitaminD", amount)[0])).toEqual(["0mcg", "0.1mcg", "0.2mcg", "0.4mcg", "2mcg"]);
    // 0.35 / 0.1 and 1.15 / 0.1 are just under a half in binary floating point (3.4999…, 11.4999…).
    expect([0.04, 0.05, 1.15, 1.8].map((amount) => shown("iron", amount)[0])).toEqual(["0mg", "0.1mg", "1.2mg", "1.8mg"]);
    expect([4.9, 5, 14.9, 15, 198.8].map((amount) => shown("calcium", amount)[0])).toEqual(["0mg", "10mg", "10mg", "20mg", "200mg"]);
  });

  test("the display rounds the unrounded amount of the serving, not a value already rounded to SR28's decimals", () => {
    // 3.52 g × 14.2 / 100 = 0.49984 g: "0g" (rounded first to the detail's two decimals it would be 0.50, "0.5g").
    expect(shown("totalFat", 3.52, 14.2)).toEqual(["0g", 0]);
    // 10 mg × 50 / 100 = 5 mg exactly: still "<5mg".
    expect(shown("cholesterol", 10, 50)).toEqual(["<5mg", 2]);
  });
});

describe("%DV: from the unrounded amount, then rounded", () => {
  test("macronutrients to the nearest 1 %, a half up, also where binary floating point falls just short", () => {
    // Total fat 2.73 g / 78 g = 3.5 % exactly (2.73 / 78 × 100 is 3.4999… in floating point); 5.46 g: 7 %.
    expectCases("totalFat", [
      [2.73, "2.5g", 4],
      [5.46, "5g", 7],
      [38.61, "39g", 50],
      [39, "39g", 50],
    ]);
    // Saturated fat 0.7 g / 20 g = 3.5 %; 0.5 g = 2.5 %.
    expectCases("saturatedFat", [
      [0.5, "0.5g", 3],
      [0.7, "0.5g", 4],
    ]);
    // Sodium 80.5 mg / 2,300 mg = 3.5 %; 11.5 mg = 0.5 %.
    expectCases("sodium", [
      [11.5, "10mg", 1],
      [80.5, "80mg", 4],
    ]);
    // Carbohydrate 9.625 g / 275 g = 3.5 %; fiber 0.14 g / 28 g = 0.5 % (but displayed 0), 0.28 g = 1 %.
    expectCases("totalCarbohydrate", [[9.625, "10g", 4]]);
    expectCases("dietaryFiber", [
      [0.5, "<1g", 2],
      [0.99, "<1g", 4],
      [1, "1g", 4],
    ]);
  });

  test("a display of 0 states 0 %, though the unrounded amount would round to more", () => {
    // Unrounded: fat 0.63 % → 1, saturated fat 2.45 % → 2, cholesterol 0.63 % → 1, fiber 1.75 % → 2.
    expect(shown("totalFat", 0.49)).toEqual(["0g", 0]);
    expect(shown("saturatedFat", 0.49)).toEqual(["0g", 0]);
    expect(shown("cholesterol", 1.9)).toEqual(["0mg", 0]);
    expect(shown("dietaryFiber", 0.49)).toEqual(["0g", 0]);
    // Calcium 4.9 mg displays "0mg"; vitamin D 0.04 mcg "0mcg".
    expect(shown("calcium", 4.9)).toEqual(["0mg", 0]);
    expect(shown("vitaminD", 0.04)).toEqual(["0mcg", 0]);
  });

  test("vitamins and minerals: nearest 2 % up to and including 10 %, nearest 5 % up to and including 50 %, nearest 10 % above", () => {
    // Vitamin D: DV 20 mcg, so 1 % is 0.2 mcg. [amount, the percentage it is, the %DV stated]
    const cases: [number, number, number][] = [
      [0.198, 0.99, 0],
      [0.2, 1, 2],
      [0.58, 2.9, 2],
      [0.6, 3, 4],
      [1.78, 8.9, 8],
      [1.8, 9, 10],
      [2, 10, 10],
      [2.08, 10.4, 10],
      [2.48, 12.4, 10],
      [2.5, 12.5, 15],
      [9.5, 47.5, 50],
      [10, 50, 50],
      [10.5, 52.5, 50],
      [10.98, 54.9, 50],
      [11, 55, 60],
    ];
    expect(cases.map(([amount, percent]) => [amount, percent, shown("vitaminD", amount)[1]])).toEqual(cases);
    // Calcium (DV 1,300 mg): 12.9 mg 0.99 %, 13 mg 1 %, 130 mg 10 %, 136.5 mg 10.5 %, 162.5 mg 12.5 %.
    expect([12.9, 13, 130, 136.5, 162.5].map((amount) => shown("calcium", amount)[1])).toEqual([0, 2, 10, 10, 15]);
    // Iron (DV 18 mg): 0.18 mg 1 %, 0.27 mg 1.5 %, 0.54 mg 3 % (3.0000…4 in floating point), 1.62 mg 9 %, 9 mg 50 %, 9.9 mg 55 %.
    expect([0.18, 0.27, 0.54, 1.62, 9, 9.9].map((amount) => shown("iron", amount)[1])).toEqual([2, 2, 4, 10, 50, 60]);
    // Potassium (DV 4,700 mg): 140 mg 2.98 %, 141 mg 3 % exactly, 470 mg 10 %, 2,350 mg 50 %, 2,585 mg 55 %.
    expect([140, 141, 470, 2350, 2585].map((amount) => shown("potassium", amount)[1])).toEqual([2, 4, 10, 50, 60]);
  });

  test("no %DV for calories, trans fat, total sugars or protein", () => {
    expect([shown("calories", 500)[1], shown("transFat", 3)[1], shown("totalSugars", 30)[1], shown("protein", 30)[1]]).toEqual([null, null, null, null]);
  });
});
