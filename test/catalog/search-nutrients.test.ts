import { describe, expect, test } from "bun:test";
import { oracleFoods, oracleMatches, oracleNutrientUnits, oracleNutrientValues, type OracleFood } from "../helpers/sr28-oracle";
import { testAppWithKey } from "../helpers/test-app";

/**
 * Nutrient filters and sorts on GET /v1/foods (design §9), held against an oracle computed here from
 * the raw SR28 files (FOOD_DES.txt, NUT_DATA.txt, NUTR_DEF.txt): every case is walked page by page, and
 * must give each matching food exactly once, in the oracle's order, with the values the files hold.
 */
const suite = testAppWithKey();

type Item = { foodNumber: string; name: string; nutrients?: { number: string; value: number | null; unit: string }[] };

async function search(query: string) {
  const response = await suite.app.request(`/v1/foods?${query}`, { headers: { "x-api-key": suite.key } });
  return { status: response.status, body: (await response.json()) as any };
}

/** Every page of a search, in order; each page's envelope checked on the way. */
async function walk(query: string, limit: number): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = [];
  let total = -1;
  for (let page = 1; page <= 500; page++) {
    const { status, body } = await search(`${query}&limit=${limit}&page=${page}`);
    expect(status).toBe(200);
    if (total === -1) total = body.total;
    expect([body.page, body.limit, body.total]).toEqual([page, limit, total]);
    if (body.items.length === 0) break;
    expect(body.items.length).toBe(Math.min(limit, total - (page - 1) * limit));
    items.push(...body.items);
  }
  return { items, total };
}

const values = oracleNutrientValues();
const units = oracleNutrientUnits();
const valueOf = (number: string, food: OracleFood) => values.get(number)!.get(food.foodNumber);
const byFoodNumber = (a: OracleFood, b: OracleFood) => (a.foodNumber < b.foodNumber ? -1 : a.foodNumber > b.foodNumber ? 1 : 0);
const folded = (name: string) => name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

interface Case {
  label: string;
  query: string;
  q?: string;
  group?: string;
  filters?: [string, number | undefined, number | undefined][];
  /** The order the oracle computes; `relevance` cases are checked against the API's own unfiltered order. */
  sort: { by: "nutrient"; number: string; descending: boolean } | { by: "name" | "foodNumber"; descending: boolean } | { by: "relevance" };
  /** The nutrients each item must carry, in this order. */
  listed: string[];
  limit: number;
}

const cases: Case[] = [
  { label: "the whole catalog by protein, highest first (the default order)", query: "sort=nutrient.203", sort: { by: "nutrient", number: "203", descending: true }, listed: ["203"], limit: 90 },
  { label: "the whole catalog by protein, lowest first", query: "sort=nutrient.203&order=asc", sort: { by: "nutrient", number: "203", descending: false }, listed: ["203"], limit: 90 },
  { label: "cheese by sodium, lowest first", query: "q=cheese&sort=nutrient.307&order=asc", q: "cheese", sort: { by: "nutrient", number: "307", descending: false }, listed: ["307"], limit: 23 },
  { label: "fruits by vitamin C (foods without a value last)", query: "group=0900&sort=nutrient.401", group: "0900", sort: { by: "nutrient", number: "401", descending: true }, listed: ["401"], limit: 37 },
  { label: "beverages by alcohol, lowest first (a sparse nutrient: many without a value)", query: "group=1400&sort=nutrient.221&order=asc", group: "1400", sort: { by: "nutrient", number: "221", descending: false }, listed: ["221"], limit: 41 },
  {
    label: "poultry with at least 20 g protein and at most 5 g fat, by food number",
    query: "group=0500&nutrient.203=20..&nutrient.204=..5",
    group: "0500",
    filters: [["203", 20, undefined], ["204", undefined, 5]],
    sort: { by: "foodNumber", descending: false },
    listed: ["203", "204"],
    limit: 7,
  },
  {
    label: "chicken with 100 to 250 kcal, in relevance order",
    query: "q=chicken&nutrient.208=100..250",
    q: "chicken",
    filters: [["208", 100, 250]],
    sort: { by: "relevance" },
    listed: ["208"],
    limit: 19,
  },
  {
    label: "calcium-rich foods by name, Z to A, with the sort's nutrient listed first",
    query: "nutrient.301=500..&sort=name&order=desc",
    filters: [["301", 500, undefined]],
    sort: { by: "name", descending: true },
    listed: ["301"],
    limit: 13,
  },
  {
    label: "carrots with at most 10 g fat, by vitamin A, sort nutrient first then the filter's",
    query: "q=carrot&nutrient.204=..10&sort=nutrient.318",
    q: "carrot",
    filters: [["204", undefined, 10]],
    sort: { by: "nutrient", number: "318", descending: true },
    listed: ["318", "204"],
    limit: 5,
  },
  {
    label: "a filter on the sort's nutrient is listed once; decimal bounds are inclusive",
    query: "nutrient.203=0.85..0.85&sort=nutrient.203&order=asc&nutrient.205=..50.5",
    filters: [["203", 0.85, 0.85], ["205", undefined, 50.5]],
    sort: { by: "nutrient", number: "203", descending: false },
    listed: ["203", "205"],
    limit: 3,
  },
  { label: "apple by food number, descending", query: "q=apple&sort=foodNumber&order=desc", q: "apple", sort: { by: "foodNumber", descending: true }, listed: [], limit: 30 },
  { label: "no q, food number descending via order alone", query: "group=0100&order=desc", group: "0100", sort: { by: "foodNumber", descending: true }, listed: [], limit: 50 },
  {
    label: "five filters at once, sorted by iron",
    query: "nutrient.203=5..&nutrient.204=..20&nutrient.208=..400&nutrient.307=..600&nutrient.269=..10&sort=nutrient.303",
    filters: [["203", 5, undefined], ["204", undefined, 20], ["208", undefined, 400], ["307", undefined, 600], ["269", undefined, 10]],
    sort: { by: "nutrient", number: "303", descending: true },
    listed: ["303", "203", "204", "208", "307", "269"],
    limit: 90,
  },
];

describe("nutrient filters and sorts against the raw SR28 files", () => {
  for (const c of cases) {
    test(c.label, async () => {
      let expected = (c.q === undefined ? oracleFoods().filter((f) => c.group === undefined || f.group === c.group) : oracleMatches(c.q, c.group)).filter((food) =>
        (c.filters ?? []).every(([number, min, max]) => {
          const value = valueOf(number, food);
          return value !== undefined && (min === undefined || value >= min) && (max === undefined || value <= max);
        }),
      );
      const sort = c.sort;
      if (sort.by === "nutrient") {
        const withValue = expected.filter((f) => valueOf(sort.number, f) !== undefined);
        const without = expected.filter((f) => valueOf(sort.number, f) === undefined).sort(byFoodNumber);
        withValue.sort((a, b) => (valueOf(sort.number, a)! - valueOf(sort.number, b)!) * (sort.descending ? -1 : 1) || byFoodNumber(a, b));
        expected = [...withValue, ...without];
      } else if (sort.by === "name") {
        const direction = sort.descending ? -1 : 1;
        expected.sort((a, b) => (folded(a.name) < folded(b.name) ? -direction : folded(a.name) > folded(b.name) ? direction : byFoodNumber(a, b)));
      } else if (sort.by === "foodNumber") {
        expected.sort((a, b) => byFoodNumber(a, b) * (sort.descending ? -1 : 1));
      } else {
        // Relevance: the filtered matches keep the order of the same search without filters.
        const unfiltered = (await walk(`q=${encodeURIComponent(c.q!)}`, 90)).items.map((i) => i.foodNumber);
        const kept = new Set(expected.map((f) => f.foodNumber));
        expected = unfiltered.filter((n) => kept.has(n)).map((n) => expected.find((f) => f.foodNumber === n)!);
      }
      expect(expected.length).toBeGreaterThan(c.limit);

      const { items, total } = await walk(c.query, c.limit);
      expect(total).toBe(expected.length);
      expect(new Set(items.map((i) => i.foodNumber)).size).toBe(items.length);
      expect(items.map((i) => i.foodNumber)).toEqual(expected.map((f) => f.foodNumber));
      expect(items.map((i) => i.name)).toEqual(expected.map((f) => f.name));
      for (const [i, item] of items.entries()) {
        if (c.listed.length === 0) {
          expect(Object.keys(item).sort()).toEqual(["foodNumber", "name"]);
          continue;
        }
        expect(item.nutrients).toEqual(c.listed.map((number) => ({ number, value: valueOf(number, expected[i]!) ?? null, unit: units.get(number)! })));
      }
      if (sort.by === "nutrient") {
        // The sparse cases really have foods without the value, and they came last.
        const missing = items.filter((i) => i.nutrients![0]!.value === null).length;
        if (c.label.includes("without a value") || c.label.includes("sparse")) expect(missing).toBeGreaterThan(0);
        expect(items.slice(items.length - missing).every((i) => i.nutrients![0]!.value === null)).toBe(true);
      }
    });
  }

  test("a filter nothing satisfies is an empty page with total 0", async () => {
    const { status, body } = await search("nutrient.203=1000..");
    expect(status).toBe(200);
    expect(body).toEqual({ items: [], total: 0, page: 1, limit: 20 });
  });

  test("empty nutrient, sort and order parameters mean absent", async () => {
    const plain = await search("q=butter");
    const empty = await search("q=butter&nutrient.203=&sort=&order=");
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(plain.body);
  });

  test("without a filter or nutrient sort, items stay exactly foodNumber and name", async () => {
    for (const query of ["q=apple&sort=name", "sort=foodNumber&order=desc", "q=apple&sort=relevance&order=desc"]) {
      const { body } = await search(query);
      for (const item of body.items) expect(Object.keys(item).sort()).toEqual(["foodNumber", "name"]);
    }
  });

  test("sort=relevance ignores order; without q it is food-number order", async () => {
    expect((await search("q=apple&sort=relevance&order=desc")).body).toEqual((await search("q=apple")).body);
    expect((await search("sort=relevance&order=desc&limit=5")).body).toEqual((await search("limit=5")).body);
  });
});

describe("malformed or unknown values are a 400, never a 5xx", () => {
  const six = ["203", "204", "205", "208", "301", "307"].map((n) => `nutrient.${n}=0..`).join("&");
  const cases: [string, "VALIDATION_ERROR" | "UNKNOWN_NUTRIENT", string][] = [
    ["nutrient.203=20", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=a..", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=5..1", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=..", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=1..2..3", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=1...", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=1e3..", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=Infinity..", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=NaN..5", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=0x10..", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=1,5..2", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=..%201", "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=%00..1", "VALIDATION_ERROR", "nutrient.203"],
    [`nutrient.203=${"9".repeat(400)}..`, "VALIDATION_ERROR", "nutrient.203"],
    ["nutrient.203=1..&nutrient.203=..5", "VALIDATION_ERROR", "nutrient.203"],
    [six, "VALIDATION_ERROR", "nutrient.307"],
    ["nutrient.999=1..", "UNKNOWN_NUTRIENT", "999"],
    ["nutrient.abc=1..", "UNKNOWN_NUTRIENT", "abc"],
    ["nutrient.=1..", "UNKNOWN_NUTRIENT", "''"],
    ["nutrient.0203=1..", "UNKNOWN_NUTRIENT", "0203"],
    ["nutrient.999=nonsense", "UNKNOWN_NUTRIENT", "999"],
    ["sort=price", "VALIDATION_ERROR", "sort"],
    ["sort=Name", "VALIDATION_ERROR", "sort"],
    ["sort=nutrient", "VALIDATION_ERROR", "sort"],
    ["sort=nutrient.999", "UNKNOWN_NUTRIENT", "999"],
    ["sort=nutrient.", "UNKNOWN_NUTRIENT", "''"],
    ["sort=%22relevance%22", "VALIDATION_ERROR", "sort"],
    ["order=up", "VALIDATION_ERROR", "order"],
    ["order=DESC", "VALIDATION_ERROR", "order"],
    ["q=apple&sort=relevance&order=sideways", "VALIDATION_ERROR", "order"],
    ["group=junk&sort=bogus", "VALIDATION_ERROR", "sort"],
  ];
  for (const [query, code, named] of cases) {
    test(`${query.slice(0, 80)} is 400 ${code}`, async () => {
      const { status, body } = await search(query);
      expect({ status, code: body.code }).toEqual({ status: 400, code });
      expect(body.message).toContain(named);
    });
  }
});
