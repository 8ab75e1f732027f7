import { describe, expect, test } from "bun:test";
import { obtainTrialToken } from "../helpers/altcha";
import { testAppWithKey } from "../helpers/test-app";
import { rateLimitRemaining as remaining } from "../helpers/http";
import { MAX_BODY_BYTES } from "../../src/platform/http/body-limit";
import { TRIAL_TOKEN_REQUESTS } from "../../src/trial/token";
import { GRAMS_MAX } from "../../src/catalog/model";
import type { AnalyzeResult } from "../../src/analysis/model";

// POST /v1/analyze and GET /v1/foods/suggest over HTTP (decisions §16): the guard, the quota per line, the
// 4xx answers and their counting, and what the routes answer. What the analysis itself finds is the
// analysis tests' (analyze.test.ts, hostile.test.ts).

const suite = testAppWithKey({ env: { FOODAPI_TRIAL_IP_LIMIT: "1000/1h" } });

const analyze = (body: unknown, headers: Record<string, string> = { "x-api-key": suite.key }) =>
  suite.app.request("/v1/analyze", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
const left = async () => remaining(await suite.app.request("/v1/nutrients", { headers: { "x-api-key": suite.key } }));
type Answer = AnalyzeResult & { code?: string; message?: string };

describe("POST /v1/analyze", () => {
  test("one item per line in order, totals and per serving; each line costs a unit", async () => {
    const before = await left();
    const response = await analyze({ lines: ["1 cup chopped onion", "2 tbsp olive oil", "salt and pepper to taste"], servings: 2, nutrients: ["208", "203"] });
    expect(response.status).toBe(200);
    expect(remaining(response)).toBe(before - 3);
    const body = (await response.json()) as Answer;
    expect(body.items.map((i) => [i.line, i.status, i.food?.foodNumber])).toEqual([
      ["1 cup chopped onion", "matched", "11282"],
      ["2 tbsp olive oil", "matched", "04053"],
      ["salt and pepper to taste", "unmatched", body.items[2]!.food?.foodNumber],
    ]);
    expect(body.items[2]!.reason).toBe("quantity");
    expect(body.totalGrams).toBe(body.items[0]!.grams + body.items[1]!.grams);
    expect(body.totals.map((n) => n.number).sort()).toEqual(["203", "208"]);
    expect(body.perServing.grams).toBe(Math.round((body.totalGrams / 2) * 10) / 10);
    expect(body.label).toBeUndefined();
  });

  test('"label": true adds the label of one serving, from every nutrient whichever are listed', async () => {
    const lines = ["1 cup chopped onion", "2 tbsp olive oil", "1 cup shredded cheddar cheese"];
    const all = (await (await analyze({ lines, servings: 4 })).json()) as Answer;
    const body = (await (await analyze({ lines, servings: 4, nutrients: ["203"], label: true })).json()) as Answer;
    expect(body.totals.map((n) => n.number)).toEqual(["203"]);
    expect(body.perServing.nutrients.map((n) => n.number)).toEqual(["203"]);
    const label = body.label!;
    expect(label.servingSize).toEqual({ grams: all.perServing.grams, description: "1 serving" });
    const perServing = new Map(all.perServing.nutrients.map((n) => [n.number, n.value]));
    const line = (key: string) => label.lines.find((l) => l.key === key)!;
    expect(label.lines.map((l) => l.key)).toEqual([
      "calories", "totalFat", "saturatedFat", "transFat", "cholesterol", "sodium", "totalCarbohydrate", "dietaryFiber",
      "totalSugars", "addedSugars", "protein", "vitaminD", "calcium", "iron", "potassium",
    ]);
    for (const l of label.lines) if (l.number !== null && perServing.get(l.number) !== null) expect([l.key, l.amount]).toEqual([l.key, perServing.get(l.number)!]);
    // Rounded as §17 says: calories above 50 to the nearest 10; fat above 5 g to the nearest gram.
    const kcal = perServing.get("208")!;
    expect(kcal).toBeGreaterThan(50);
    expect(line("calories").display).toBe(String(Math.round(kcal / 10) * 10));
    expect(line("totalFat").display).toBe(`${Math.round(perServing.get("204")!)}g`);
    expect(line("addedSugars")).toMatchObject({ amount: null, display: "not available", dv: null });
    expect((await (await analyze({ lines, label: false })).json()) as Answer).not.toHaveProperty("label");
  });

  test("hostile lines are answered 200 with lines that do not count, never a 5xx", async () => {
    const hostile = ["1/0 cup sugar", "1e309 g sugar", `${"9".repeat(150)} g sugar`, "\u0000\u0000\u0000", "1 cup \u202esugar\u202c", "🍕🍕🍕", "<script>alert(1)</script>", "'; DROP TABLE food; --", "1 cup sugar #99999", "%s%s%n"];
    const response = await analyze({ lines: [...hostile, "1 cup sugar"] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer;
    expect(body.items).toHaveLength(hostile.length + 1);
    body.items.forEach((item, i) => {
      expect(item.line).toBe([...hostile, "1 cup sugar"][i]!);
      expect(Number.isFinite(item.grams) && item.grams >= 0 && item.grams <= GRAMS_MAX).toBe(true);
      if (item.status === "unmatched") expect(item.grams).toBe(0);
    });
    for (const i of [0, 1, 2, 3, 5]) expect([hostile[i], body.items[i]!.status]).toEqual([hostile[i], "unmatched"]);
    const matched = body.items.filter((i) => i.status === "matched").reduce((sum, i) => sum + i.grams, 0);
    expect(body.totalGrams).toBeCloseTo(matched, 1);
    expect(suite.app.errors).toEqual([]);
  });

  test("a body that is not an analysis is 400 VALIDATION_ERROR naming the field, and costs one unit", async () => {
    const cases: [unknown, string][] = [
      [{}, "lines"],
      [{ lines: [] }, "lines"],
      [{ lines: Array(101).fill("1 egg") }, "lines"],
      [{ lines: ["1 egg", "  "] }, "lines.1"],
      [{ lines: ["1 egg", 7] }, "lines.1"],
      [{ lines: ["x".repeat(201)] }, "lines.0"],
      [{ lines: ["1 egg"], servings: 0 }, "servings"],
      [{ lines: ["1 egg"], servings: 1.5 }, "servings"],
      [{ lines: ["1 egg"], nutrients: "208" }, "nutrients"],
      [{ lines: ["1 egg"], label: "yes" }, "label"],
      [{ lines: ["1 egg"], recipe: "x" }, "recipe"],
      [[], "body"],
      ["null", "body"],
    ];
    for (const [body, field] of cases) {
      const before = await left();
      const response = await analyze(body);
      const answer = (await response.json()) as Answer;
      expect([body, response.status, answer.code]).toEqual([body, 400, "VALIDATION_ERROR"]);
      expect([body, answer.message!.split(":")[0]]).toEqual([body, field]);
      expect(remaining(response)).toBe(before - 1);
    }
  });

  test("malformed JSON is 400 INVALID_JSON, a body over 16 KiB is 413, each counted; without a credential 401 whatever the body", async () => {
    let before = await left();
    const malformed = await analyze("{lines: [");
    expect([malformed.status, ((await malformed.json()) as Answer).code, remaining(malformed)]).toEqual([400, "INVALID_JSON", before - 1]);
    before = await left();
    const big = await analyze({ lines: Array.from({ length: 100 }, () => "1 cup sugar ".repeat(16)) });
    expect(JSON.stringify({ lines: Array.from({ length: 100 }, () => "1 cup sugar ".repeat(16)) }).length).toBeGreaterThan(MAX_BODY_BYTES);
    expect([big.status, ((await big.json()) as Answer).code, remaining(big)]).toEqual([413, "PAYLOAD_TOO_LARGE", before - 1]);
    for (const body of ["{nope", JSON.stringify({ lines: ["1 egg"] }), "x".repeat(20_000)]) {
      const response = await analyze(body, {});
      expect([response.status, response.headers.get("ratelimit")]).toEqual([401, null]);
    }
  });

  test(`a trial token's ${TRIAL_TOKEN_REQUESTS} requests are ${TRIAL_TOKEN_REQUESTS} lines: 25 lines leave 5, 6 more are 429 and count nothing`, async () => {
    const { token } = await obtainTrialToken((path, init) => suite.app.request(path, init));
    const headers = { authorization: `Bearer ${token}` };
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1} g sugar`);
    const first = await analyze({ lines: lines(25) }, headers);
    expect([first.status, remaining(first)]).toEqual([200, TRIAL_TOKEN_REQUESTS - 25]);
    const refused = await analyze({ lines: lines(6) }, headers);
    expect([refused.status, ((await refused.json()) as Answer).code, remaining(refused)]).toEqual([429, "TRIAL_QUOTA_EXHAUSTED", 5]);
    const rest = await analyze({ lines: lines(5) }, headers);
    expect([rest.status, remaining(rest)]).toEqual([200, 0]);
    expect((await analyze({ lines: lines(1) }, headers)).status).toBe(429);
  });
});

describe("GET /v1/foods/suggest", () => {
  const suggest = (query: string) => suite.app.request(`/v1/foods/suggest?${query}`, { headers: { "x-api-key": suite.key } });
  type Suggested = { items: { foodNumber: string; name: string }[]; code?: string; message?: string };

  test('typo-tolerant: "chedar" finds Cheese, cheddar and "brocoli" Broccoli, raw, first; one unit each', async () => {
    const before = await left();
    const cheddar = await suggest("q=chedar");
    expect(remaining(cheddar)).toBe(before - 1);
    expect(((await cheddar.json()) as Suggested).items[0]).toEqual({ foodNumber: "01009", name: "Cheese, cheddar" });
    const broccoli = (await (await suggest("q=brocoli&limit=3")).json()) as Suggested;
    expect(broccoli.items).toHaveLength(3);
    expect(broccoli.items[0]!.name).toBe("Broccoli, raw");
    expect(((await (await suggest("q=chedar&limit=50")).json()) as Suggested).items.length).toBeLessThanOrEqual(20);
  });

  test("q of 2 to 100 characters after trimming, else 400 naming q, counted", async () => {
    expect((await suggest(`q=${encodeURIComponent("é".repeat(100))}`)).status).toBe(200);
    for (const query of ["", "q=", "q=a", "q=%20a%20", `q=${encodeURIComponent("é".repeat(101))}`]) {
      const before = await left();
      const response = await suggest(query);
      const body = (await response.json()) as Suggested;
      expect([query, response.status, body.code, body.message!.split(":")[0]]).toEqual([query, 400, "VALIDATION_ERROR", "q"]);
      expect(remaining(response)).toBe(before - 1);
    }
    expect((await suite.app.request("/v1/foods/suggest?q=chedar")).status).toBe(401);
  });

  test("the fixed path does not take the food detail's: /v1/foods/{n} still answers, and GET of a POST-only path is a food number", async () => {
    const detail = await suite.app.request("/v1/foods/01009", { headers: { "x-api-key": suite.key } });
    expect([detail.status, ((await detail.json()) as { name: string }).name]).toEqual([200, "Cheese, cheddar"]);
    const lookup = await suite.app.request("/v1/foods/lookup", { headers: { "x-api-key": suite.key } });
    expect([lookup.status, ((await lookup.json()) as Suggested).code]).toEqual([404, "FOOD_NOT_FOUND"]);
  });
});
