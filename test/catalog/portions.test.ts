import { describe, expect, test } from "bun:test";
import { oracleFoodValues, oraclePortions, oracleScaled } from "../helpers/sr28-oracle";
import { testAppWithKey } from "../helpers/test-app";

// Amounts for a portion (design §9): every value scaled to the grams asked for, rounded to the
// nutrient's SR28 decimals, checked against an oracle that reads the raw SR28 files and multiplies their
// decimal text by hand.

const suite = testAppWithKey();

interface Detail {
  basis: { grams: number; portion: { seq: number; amount: number; description: string; grams: number } | null };
  nutrients: { number: string; value: number; stdError: number | null }[];
  portions: { seq: number; amount: number; description: string; grams: number }[];
}

async function detail(path: string) {
  const response = await suite.app.request(path, { headers: { "x-api-key": suite.key } });
  return { status: response.status, body: (await response.json()) as Detail & { code?: string; message?: string }, response };
}

/** Each nutrient's expected value for `gramsText` grams, from the raw files. */
function expectedFor(foodNumber: string, gramsText: string): Map<string, number> {
  return new Map(oracleFoodValues(foodNumber).map((v) => [v.nutrientNumber, Number(oracleScaled(v.text, gramsText, v.decimals))]));
}

// Butter, cheddar, raw broccoli, a cereal with many fortified micronutrients, baby food, a beef cut.
const FOODS = ["01001", "01009", "11090", "08020", "03002", "13047"];

describe("?grams= and ?portion= on GET /v1/foods/{foodNumber}", () => {
  test("every detail says what its values are for: 100 g by default", async () => {
    for (const foodNumber of FOODS) {
      const { status, body } = await detail(`/v1/foods/${foodNumber}`);
      expect(status).toBe(200);
      expect(body.basis).toEqual({ grams: 100, portion: null });
      // Unscaled: the file's own values.
      const expected = expectedFor(foodNumber, "100");
      expect(body.nutrients.length).toBe(expected.size);
      for (const n of body.nutrients) expect([n.number, n.value]).toEqual([n.number, expected.get(n.number)!]);
    }
  });

  test("?grams= scales every value to value × grams / 100, rounded to the nutrient's decimals", async () => {
    let compared = 0;
    for (const foodNumber of FOODS) {
      for (const grams of ["150", "28.35", "1", "0.5", "10000", "33.333"]) {
        const { status, body } = await detail(`/v1/foods/${foodNumber}?grams=${grams}`);
        expect(status).toBe(200);
        expect(body.basis).toEqual({ grams: Number(grams), portion: null });
        const expected = expectedFor(foodNumber, grams);
        expect(body.nutrients.length).toBe(expected.size);
        for (const n of body.nutrients) {
          expect([foodNumber, grams, n.number, n.value]).toEqual([foodNumber, grams, n.number, expected.get(n.number)!]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(2000);
  });

  test("?portion=<seq> scales to that portion's grams, and basis carries the portion", async () => {
    for (const foodNumber of FOODS) {
      const portions = oraclePortions(foodNumber);
      expect(portions.length).toBeGreaterThan(0);
      for (const portion of portions) {
        const { status, body } = await detail(`/v1/foods/${foodNumber}?portion=${portion.seq}`);
        expect(status).toBe(200);
        const listed = body.portions.find((p) => p.seq === portion.seq)!;
        expect(listed.grams).toBe(Number(portion.gramsText));
        expect(body.basis).toEqual({ grams: Number(portion.gramsText), portion: listed });
        const expected = expectedFor(foodNumber, portion.gramsText);
        for (const n of body.nutrients) expect([n.number, n.value]).toEqual([n.number, expected.get(n.number)!]);
      }
    }
  });

  test("butter, one tablespoon (14.2 g): 102 kcal, 0.12 g protein", async () => {
    const { body } = await detail("/v1/foods/01001?portion=2");
    expect(body.basis.portion).toEqual({ seq: 2, amount: 1, description: "tbsp", grams: 14.2 });
    const value = (number: string) => body.nutrients.find((n) => n.number === number)!.value;
    expect(value("208")).toBe(102);
    expect(value("203")).toBe(0.12);
  });

  test("combines with ?nutrients=: only those, scaled", async () => {
    const { body } = await detail("/v1/foods/01009?nutrients=208,203,999&grams=30");
    const expected = expectedFor("01009", "30");
    expect(body.nutrients.map((n) => [n.number, n.value])).toEqual([
      ["208", expected.get("208")!],
      ["203", expected.get("203")!],
    ]);
    expect(body.basis).toEqual({ grams: 30, portion: null });
    const byPortion = await detail("/v1/foods/01009?portion=1&nutrients=203");
    expect(byPortion.body.nutrients).toHaveLength(1);
    expect(byPortion.body.basis.portion?.seq).toBe(1);
  });

  test("an empty parameter means absent; grams=100 answers as the plain detail", async () => {
    const plain = await (await suite.app.request("/v1/foods/01001", { headers: { "x-api-key": suite.key } })).text();
    expect(await (await suite.app.request("/v1/foods/01001?grams=&portion=", { headers: { "x-api-key": suite.key } })).text()).toBe(plain);
    expect(JSON.parse(await (await suite.app.request("/v1/foods/01001?grams=100", { headers: { "x-api-key": suite.key } })).text())).toEqual(JSON.parse(plain));
  });

  test("both parameters, a bad number or an unknown seq: 400 VALIDATION_ERROR naming the field, never 5xx", async () => {
    const cases: [string, string][] = [
      ["grams=150&portion=1", "grams"],
      ["portion=1&grams=150", "grams"],
      ["grams=0", "grams"],
      ["grams=-5", "grams"],
      ["grams=10000.5", "grams"],
      ["grams=10001", "grams"],
      ["grams=abc", "grams"],
      ["grams=1e3", "grams"],
      ["grams=NaN", "grams"],
      ["grams=Infinity", "grams"],
      ["grams=%20150", "grams"],
      ["grams=1.5.5", "grams"],
      ["grams=.5", "grams"],
      ["grams=1.1234567", "grams"],
      [`grams=${"9".repeat(400)}`, "grams"],
      ["grams=%00", "grams"],
      ["portion=0", "portion"],
      ["portion=99", "portion"],
      ["portion=-1", "portion"],
      ["portion=1.5", "portion"],
      ["portion=abc", "portion"],
      [`portion=${"1".repeat(30)}`, "portion"],
    ];
    for (const [query, field] of cases) {
      const { status, body, response } = await detail(`/v1/foods/01001?${query}`);
      expect([query, status, body.code]).toEqual([query, 400, "VALIDATION_ERROR"]);
      expect(body.message!.startsWith(`${field}:`)).toBe(true);
      // Counted, as every request that passed the guard.
      expect(response.headers.get("ratelimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    }
  });

  test("an unknown food with a good amount is still 404 FOOD_NOT_FOUND", async () => {
    for (const path of ["/v1/foods/99999?grams=10", "/v1/foods/99999?portion=1", "/v1/foods/abc?grams=5"]) {
      const { status, body } = await detail(path);
      expect([path, status, body.code]).toEqual([path, 404, "FOOD_NOT_FOUND"]);
    }
  });
});
