import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/paths";
import { oracleFoods, oracleMatches } from "../helpers/sr28-oracle";
import { testAppWithKey } from "../helpers/test-app";

/**
 * Relevance as a new user meets it: docs/api.md's table of everyday queries (section "Search relevance"),
 * each with the food a person would expect among the first three results, is read here and checked
 * against the API; and the rules the guide states are checked on the queries that motivated them.
 */
const suite = testAppWithKey();

type Item = { foodNumber: string; name: string };

async function search(params: Record<string, string>): Promise<{ items: Item[]; total: number }> {
  const response = await suite.app.request(`/v1/foods?${new URLSearchParams(params)}`, { headers: { "x-api-key": suite.key } });
  expect(response.status).toBe(200);
  return (await response.json()) as { items: Item[]; total: number };
}

async function allPages(q: string): Promise<Item[]> {
  const items: Item[] = [];
  for (let page = 1; page <= 100; page++) {
    const body = await search({ q, limit: "90", page: String(page) });
    if (body.items.length === 0) break;
    items.push(...body.items);
  }
  return items;
}

function guideTable(): { q: string; foodNumber: string; name: string }[] {
  const guide = readFileSync(join(ROOT, "docs/api.md"), "utf8");
  const start = guide.indexOf("### Search relevance");
  expect(start).toBeGreaterThan(-1);
  const section = guide.slice(start, guide.indexOf("\n## ", start));
  return [...section.matchAll(/^\| `([^`]+)` \| (\d{5}) (.+?) \|$/gm)].map((m) => ({ q: m[1]!, foodNumber: m[2]!, name: m[3]! }));
}

describe("the API guide's everyday queries", () => {
  const table = guideTable();

  test("the table has at least 20 queries, each naming a real food that matches its query", () => {
    expect(table.length).toBeGreaterThanOrEqual(20);
    expect(new Set(table.map((row) => row.q)).size).toBe(table.length);
    const names = new Map(oracleFoods().map((f) => [f.foodNumber, f.name]));
    for (const row of table) {
      expect([row.q, names.get(row.foodNumber)]).toEqual([row.q, row.name]);
      expect(oracleMatches(row.q).map((f) => f.foodNumber)).toContain(row.foodNumber);
    }
  });

  for (const row of table) {
    test(`q=${row.q}: ${row.name} is among the first three`, async () => {
      const { items } = await search({ q: row.q, limit: "3" });
      expect(items.map((i) => i.foodNumber)).toContain(row.foodNumber);
    });
  }
});

describe("the rules behind the order", () => {
  test("apple: every whole-word match (plurals too) comes before the prefix matches such as APPLEBEE'S", async () => {
    const items = await allPages("apple");
    const wholeWord = (name: string) => /(^|[^a-z0-9])apple(s|es)?([^a-z0-9]|$)/i.test(name);
    const lastWhole = items.findLastIndex((i) => wholeWord(i.name));
    const firstOther = items.findIndex((i) => !wholeWord(i.name));
    expect(lastWhole).toBeGreaterThan(0);
    expect(firstOther).toBeGreaterThan(lastWhole);
    expect(items[0]!.name).toBe("Apples, raw, with skin");
    expect(items.findIndex((i) => i.name.startsWith("APPLEBEE'S"))).toBeGreaterThan(lastWhole);
  });

  test("cheddar: the plain cheeses come before branded and restaurant items", async () => {
    const items = await allPages("cheddar");
    expect(items[0]!.name).toBe("Cheese, cheddar");
    const leanPockets = items.findIndex((i) => i.name === "LEAN POCKETS, Ham N Cheddar");
    const cheeses = items.filter((i) => i.name.startsWith("Cheese, "));
    expect(cheeses.length).toBeGreaterThan(3);
    for (const cheese of cheeses) expect(items.indexOf(cheese)).toBeLessThan(leanPockets);
  });

  test("restaurant and fast-food groups count as branded: plain chili comes before restaurant chili", async () => {
    const items = await allPages("chili");
    const groups = new Map(oracleFoods().map((f) => [f.foodNumber, f.group]));
    const restaurant = (i: Item) => ["2100", "3600"].includes(groups.get(i.foodNumber)!);
    // Plain: not in those groups and no brand in capitals; a whole-word match, as the restaurant ones have.
    const plainWholeWord = (i: Item) => !restaurant(i) && !/[A-Z]{3}/.test(i.name) && /(^|[^a-z])chili(s|es)?([^a-z]|$)/i.test(i.name);
    const firstRestaurant = items.findIndex(restaurant);
    const lastPlain = items.findLastIndex(plainWholeWord);
    expect(lastPlain).toBeGreaterThan(0);
    expect(firstRestaurant).toBeGreaterThan(lastPlain);
  });

  test("the order is total and stable: the same query answers the same, and pages never overlap", async () => {
    for (const q of ["apple", "cheese", "raw"]) {
      const first = await allPages(q);
      const again = await allPages(q);
      expect(again).toEqual(first);
      expect(new Set(first.map((i) => i.foodNumber)).size).toBe(first.length);
      expect(first.length).toBe(oracleMatches(q).length);
    }
  });
});
