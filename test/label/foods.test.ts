import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import type { NutritionLabel } from "../../src/label/label";
import { createFoodLabels } from "../../src/label/service";
import { sr28File } from "../helpers/sr28-files";
import { CATALOG_PATH, ROOT } from "../helpers/paths";
import { testAppWithKey } from "../helpers/test-app";

// Labels of real foods over the built catalog, against a table computed by hand from SR28's files
// (docs/label.md shows the same table). Each food lists the rows its label is made from, as they stand in
// WEIGHT.txt and NUT_DATA.txt (the row's start, up to its value per 100 g); the test checks that the files
// hold them, so the hand computation's inputs are SR28's own. Then per line: value × grams / 100 = amount,
// rounded by §17's rule, and the %DV from the unrounded amount.

let labels: ReturnType<typeof createFoodLabels>;
beforeAll(async () => {
  labels = createFoodLabels(await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache")));
});

type Row = [key: string, amount: number | null, display: string, dv: number | null];
interface HandComputed {
  name: string;
  foodNumber: string;
  query: { grams?: string; portion?: string };
  servingSize: NutritionLabel["servingSize"];
  /** WEIGHT row (when the serving is a portion), then NUT_DATA rows in label order. */
  sr28: string[];
  lines: Row[];
}

const NA: Row[1] = null;

const FOODS: HandComputed[] = [
  {
    name: "Butter, salted: 1 tbsp",
    foodNumber: "01001",
    query: { portion: "2" },
    servingSize: { grams: 14.2, description: "1 tbsp" },
    sr28: [
      "~01001~^2^1^~tbsp~^14.2^",
      "~01001~^~208~^717^", "~01001~^~204~^81.11^", "~01001~^~606~^51.368^", "~01001~^~605~^3.278^", "~01001~^~601~^215^",
      "~01001~^~307~^643^", "~01001~^~205~^0.06^", "~01001~^~291~^0.0^", "~01001~^~269~^0.06^", "~01001~^~203~^0.85^",
      "~01001~^~328~^0.0^", "~01001~^~301~^24^", "~01001~^~303~^0.02^", "~01001~^~306~^24^",
    ],
    lines: [
      ["calories", 101.814, "100", null], //        717 × 0.142; above 50: nearest 10
      ["totalFat", 11.51762, "12g", 15], //        81.11 × 0.142; 5 g and more: nearest 1 g; 11.51762 / 78 = 14.77 %
      ["saturatedFat", 7.294256, "7g", 36], //     51.368 × 0.142; 7.294256 / 20 = 36.47 %
      ["transFat", 0.465476, "0g", null], //       3.278 × 0.142: under 0.5 g
      ["cholesterol", 30.53, "30mg", 10], //       215 × 0.142; nearest 5 mg; 30.53 / 300 = 10.18 %
      ["sodium", 91.306, "90mg", 4], //            643 × 0.142; 5 to 140 mg: nearest 5 mg; 91.306 / 2,300 = 3.97 %
      ["totalCarbohydrate", 0.00852, "0g", 0], //  0.06 × 0.142: under 0.5 g, so 0 %
      ["dietaryFiber", 0, "0g", 0],
      ["totalSugars", 0.00852, "0g", null],
      ["addedSugars", NA, "not available", null],
      ["protein", 0.1207, "0g", null], //          0.85 × 0.142
      ["vitaminD", 0, "0mcg", 0],
      ["calcium", 3.408, "0mg", 0], //             24 × 0.142: nearest 10 mg is 0
      ["iron", 0.00284, "0mg", 0],
      ["potassium", 3.408, "0mg", 0], //           under 5 mg
    ],
  },
  {
    name: "Cheese, cheddar: 28 g (1 slice, 1 oz)",
    foodNumber: "01009",
    query: { portion: "6" },
    servingSize: { grams: 28, description: "1 slice (1 oz)" },
    sr28: [
      "~01009~^6^1^~slice (1 oz)~^28^",
      "~01009~^~208~^404^", "~01009~^~204~^33.31^", "~01009~^~606~^18.867^", "~01009~^~605~^0.917^", "~01009~^~601~^99^",
      "~01009~^~307~^653^", "~01009~^~205~^3.09^", "~01009~^~291~^0.0^", "~01009~^~269~^0.48^", "~01009~^~203~^22.87^",
      "~01009~^~328~^0.6^", "~01009~^~301~^710^", "~01009~^~303~^0.14^", "~01009~^~306~^76^",
    ],
    lines: [
      ["calories", 113.12, "110", null], //        404 × 0.28
      ["totalFat", 9.3268, "9g", 12], //           33.31 × 0.28; 9.3268 / 78 = 11.96 %
      ["saturatedFat", 5.28276, "5g", 26], //      18.867 × 0.28; 26.41 %
      ["transFat", 0.25676, "0g", null],
      ["cholesterol", 27.72, "30mg", 9], //        99 × 0.28: nearest 5 mg; 9.24 %
      ["sodium", 182.84, "180mg", 8], //           653 × 0.28: above 140 mg, nearest 10 mg; 7.95 %
      ["totalCarbohydrate", 0.8652, "<1g", 0], //  3.09 × 0.28: 0.5 g to under 1 g; 0.31 %
      ["dietaryFiber", 0, "0g", 0],
      ["totalSugars", 0.1344, "0g", null],
      ["addedSugars", NA, "not available", null],
      ["protein", 6.4036, "6g", null], //          22.87 × 0.28
      ["vitaminD", 0.168, "0.2mcg", 0], //         0.6 × 0.28; 0.84 %: nearest 2 % is 0
      ["calcium", 198.8, "200mg", 15], //          710 × 0.28; 15.29 %: above 10 %, nearest 5 %
      ["iron", 0.0392, "0mg", 0],
      ["potassium", 21.28, "20mg", 0], //          76 × 0.28; 0.45 %
    ],
  },
  {
    name: "Apples, raw, with skin: 1 medium",
    foodNumber: "09003",
    query: { portion: "4" },
    servingSize: { grams: 182, description: '1 medium (3" dia)' },
    sr28: [
      '~09003~^4^1^~medium (3" dia)~^182^',
      "~09003~^~208~^52^", "~09003~^~204~^0.17^", "~09003~^~606~^0.028^", "~09003~^~605~^0.000^", "~09003~^~601~^0^",
      "~09003~^~307~^1^", "~09003~^~205~^13.81^", "~09003~^~291~^2.4^", "~09003~^~269~^10.39^", "~09003~^~203~^0.26^",
      "~09003~^~328~^0.0^", "~09003~^~301~^6^", "~09003~^~303~^0.12^", "~09003~^~306~^107^",
    ],
    lines: [
      ["calories", 94.64, "90", null], //          52 × 1.82
      ["totalFat", 0.3094, "0g", 0], //            0.17 × 1.82: under 0.5 g
      ["saturatedFat", 0.05096, "0g", 0],
      ["transFat", 0, "0g", null],
      ["cholesterol", 0, "0mg", 0],
      ["sodium", 1.82, "0mg", 0], //               under 5 mg
      ["totalCarbohydrate", 25.1342, "25g", 9], // 13.81 × 1.82; 9.14 %
      ["dietaryFiber", 4.368, "4g", 16], //        2.4 × 1.82; 15.6 %
      ["totalSugars", 18.9098, "19g", null],
      ["addedSugars", NA, "not available", null],
      ["protein", 0.4732, "0g", null], //          0.26 × 1.82: under 0.5 g
      ["vitaminD", 0, "0mcg", 0],
      ["calcium", 10.92, "10mg", 0], //            6 × 1.82; 0.84 %
      ["iron", 0.2184, "0.2mg", 2], //             0.12 × 1.82; 1.21 %: nearest 2 %
      ["potassium", 194.74, "190mg", 4], //        107 × 1.82: nearest 10 mg; 4.14 %
    ],
  },
  {
    name: "Rice, white, long-grain, regular, enriched, cooked: 1 cup (its first portion: the default)",
    foodNumber: "20045",
    query: {},
    servingSize: { grams: 158, description: "1 cup" },
    sr28: [
      "~20045~^1^1^~cup~^158^",
      "~20045~^~208~^130^", "~20045~^~204~^0.28^", "~20045~^~606~^0.077^", "~20045~^~601~^0^", "~20045~^~307~^1^",
      "~20045~^~205~^28.17^", "~20045~^~291~^0.4^", "~20045~^~269~^0.05^", "~20045~^~203~^2.69^", "~20045~^~328~^0.0^",
      "~20045~^~301~^10^", "~20045~^~303~^1.20^", "~20045~^~306~^35^",
    ],
    lines: [
      ["calories", 205.4, "210", null], //         130 × 1.58
      ["totalFat", 0.4424, "0g", 0], //            0.28 × 1.58: under 0.5 g (0.57 % unrounded, but a 0 display states 0 %)
      ["saturatedFat", 0.12166, "0g", 0],
      ["transFat", NA, "not available", null], //  no 605 row for this food
      ["cholesterol", 0, "0mg", 0],
      ["sodium", 1.58, "0mg", 0],
      ["totalCarbohydrate", 44.5086, "45g", 16], // 28.17 × 1.58; 16.18 %
      ["dietaryFiber", 0.632, "<1g", 2], //        0.4 × 1.58; 2.26 %
      ["totalSugars", 0.079, "0g", null],
      ["addedSugars", NA, "not available", null],
      ["protein", 4.2502, "4g", null],
      ["vitaminD", 0, "0mcg", 0],
      ["calcium", 15.8, "20mg", 2], //             10 × 1.58; 1.22 %: nearest 2 %
      ["iron", 1.896, "1.9mg", 10], //             1.20 × 1.58; 10.53 %: above 10 %, nearest 5 %
      ["potassium", 55.3, "55mg", 2], //           35 × 1.58; 1.18 %
    ],
  },
  {
    name: "Egg, whole, raw, fresh: 1 large",
    foodNumber: "01123",
    query: { portion: "1" },
    servingSize: { grams: 50, description: "1 large" },
    sr28: [
      "~01123~^1^1^~large~^50^",
      "~01123~^~208~^143^", "~01123~^~204~^9.51^", "~01123~^~606~^3.126^", "~01123~^~605~^0.038^", "~01123~^~601~^372^",
      "~01123~^~307~^142^", "~01123~^~205~^0.72^", "~01123~^~291~^0.0^", "~01123~^~269~^0.37^", "~01123~^~203~^12.56^",
      "~01123~^~328~^2.0^", "~01123~^~301~^56^", "~01123~^~303~^1.75^", "~01123~^~306~^138^",
    ],
    lines: [
      ["calories", 71.5, "70", null], //           143 × 0.5
      ["totalFat", 4.755, "5g", 6], //             9.51 × 0.5: under 5 g, nearest 0.5 g; 6.10 %
      ["saturatedFat", 1.563, "1.5g", 8], //       3.126 × 0.5; 7.82 %
      ["transFat", 0.019, "0g", null],
      ["cholesterol", 186, "185mg", 62], //        372 × 0.5: nearest 5 mg; 62 %
      ["sodium", 71, "70mg", 3], //                142 × 0.5; 3.09 %
      ["totalCarbohydrate", 0.36, "0g", 0],
      ["dietaryFiber", 0, "0g", 0],
      ["totalSugars", 0.185, "0g", null],
      ["addedSugars", NA, "not available", null],
      ["protein", 6.28, "6g", null],
      ["vitaminD", 1, "1mcg", 6], //               2.0 × 0.5; 5 % exactly: a half of 2 %, up
      ["calcium", 28, "30mg", 2], //               56 × 0.5; 2.15 %
      ["iron", 0.875, "0.9mg", 4], //              1.75 × 0.5; 4.86 %
      ["potassium", 69, "70mg", 2], //             138 × 0.5; 1.47 %
    ],
  },
];

describe("labels of real foods, computed by hand from SR28", () => {
  test("the hand computation's inputs are SR28's rows", () => {
    const files = { weight: sr28File("WEIGHT.txt").toString("latin1"), values: sr28File("NUT_DATA.txt").toString("latin1") };
    for (const food of FOODS) {
      for (const row of food.sr28) {
        const file = /^~\d{5}~\^~\d{3}~/.test(row) ? files.values : files.weight;
        expect([food.name, row, file.includes(`\n${row}`) || file.startsWith(row)]).toEqual([food.name, row, true]);
      }
    }
  });

  for (const food of FOODS) {
    test(food.name, () => {
      const label = labels.label(food.foodNumber, food.query);
      expect(label.servingSize).toEqual(food.servingSize);
      expect(label.lines.map((l): Row => [l.key, l.amount, l.display, l.dv])).toEqual(food.lines);
    });
  }
});

describe("the serving", () => {
  test("by default the food's first portion (by seq); with none, 100 g", () => {
    expect(labels.label("01009").servingSize).toEqual({ grams: 132, description: "1 cup, diced" });
    // 01289 (Kefir, lowfat, plain, LIFEWAY) has no WEIGHT row.
    expect(sr28File("WEIGHT.txt").toString("latin1").includes("~01289~")).toBe(false);
    expect(labels.label("01289").servingSize).toEqual({ grams: 100, description: null });
  });

  test("?grams= gives the serving in grams, without a description", () => {
    const label = labels.label("01009", { grams: "28" });
    expect(label.servingSize).toEqual({ grams: 28, description: null });
    // The same food and grams as its 1-slice portion: the same lines.
    expect(label.lines).toEqual(labels.label("01009", { portion: "6" }).lines);
  });
});

// The label takes `grams` and `portion` as the detail route does: the same 400s, the same 404.
const suite = testAppWithKey();

describe("bad requests: the detail route's answers", () => {
  const cases: [foodNumber: string, query: Record<string, string>][] = [
    ["01009", { grams: "0" }],
    ["01009", { grams: "-5" }],
    ["01009", { grams: "10000.5" }],
    ["01009", { grams: "1.1234567" }],
    ["01009", { grams: "abc" }],
    ["01009", { portion: "99" }],
    ["01009", { portion: "1.5" }],
    ["01009", { grams: "28", portion: "6" }],
    ["99999", {}],
    ["1009", {}],
    ["99999", { grams: "0" }],
  ];
  for (const [foodNumber, query] of cases) {
    test(`${foodNumber} ${new URLSearchParams(query)}`, async () => {
      const response = await suite.app.request(`/v1/foods/${foodNumber}?${new URLSearchParams(query)}`, { headers: { "x-api-key": suite.key } });
      const detail = { status: response.status, ...((await response.json()) as { code: string; message: string }) };
      expect(detail.status === 400 || detail.status === 404).toBe(true);
      let thrown: unknown;
      try {
        labels.label(foodNumber, query);
      } catch (error) {
        thrown = error;
      }
      const { status, code, message } = thrown as { status: number; code: string; message: string };
      expect({ status, code, message }).toEqual(detail);
    });
  }
});
