import { describe, expect, test } from "bun:test";
import { oracleMatches } from "../helpers/sr28-oracle";
import { testAppWithKey } from "../helpers/test-app";

const suite = testAppWithKey();

async function search(params: Record<string, string>) {
  const response = await suite.app.request(`/v1/foods?${new URLSearchParams(params)}`, { headers: { "x-api-key": suite.key } });
  return { status: response.status, body: (await response.json()) as any };
}

describe("GET /v1/foods name search", () => {
  const cases: [string, Record<string, string>, string, string?][] = [
    ["one term", { q: "cheddar" }, "cheddar"],
    ["several terms in any order", { q: "salt butter" }, "salt butter"],
    ["a mid-word substring", { q: "utter" }, "utter"],
    ["a term shorter than a trigram", { q: "ch" }, "ch"],
    ["short and long terms together", { q: "raw ch" }, "raw ch"],
    ["upper case", { q: "CHICKEN Breast" }, "chicken breast"],
    ["a group filter", { q: "chicken", group: "0500" }, "chicken", "0500"],
    ["a group filter without q", { group: "1100" }, "", "1100"],
  ];
  for (const [label, params, oracleQuery, group] of cases) {
    test(`total matches an independent count of FOOD_DES.txt: ${label}`, async () => {
      const expected = oracleMatches(oracleQuery, group);
      expect(expected.length).toBeGreaterThan(0);
      const { status, body } = await search({ ...params, limit: "90" });
      expect(status).toBe(200);
      expect(body.total).toBe(expected.length);
      const names = new Map(expected.map((f) => [f.foodNumber, f.name]));
      for (const item of body.items) expect(names.get(item.foodNumber)).toBe(item.name);
    });
  }

  test("diacritics in the query are ignored: jalapeño finds the jalapeno foods", async () => {
    const { body } = await search({ q: "JALAPEÑO" });
    expect(body.total).toBe(oracleMatches("jalapeno").length);
    expect(body.total).toBeGreaterThan(0);
  });

  test("walking every page returns each match exactly once", async () => {
    const expected = oracleMatches("chicken");
    const seen: string[] = [];
    for (let page = 1; page <= 100; page++) {
      const { body } = await search({ q: "chicken", limit: "7", page: String(page) });
      if (body.items.length === 0) break;
      expect(body.page).toBe(page);
      seen.push(...body.items.map((i: { foodNumber: string }) => i.foodNumber));
    }
    expect(seen.length).toBe(expected.length);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set(expected.map((f) => f.foodNumber)));
  });

  test("walking every page without q gives all foods in food-number order", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 200; page++) {
      const { body } = await search({ limit: "90", page: String(page) });
      if (body.items.length === 0) break;
      seen.push(...body.items.map((i: { foodNumber: string }) => i.foodNumber));
    }
    expect(seen.length).toBe(8789);
    expect(seen).toEqual([...seen].sort());
  });

  test("relevance: names starting with the term come first", async () => {
    const { body } = await search({ q: "butter", limit: "5" });
    for (const item of body.items) expect(item.name.toLowerCase().startsWith("butter")).toBe(true);
    const lengths = body.items.map((i: { name: string }) => i.name.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  test("items carry exactly foodNumber and name", async () => {
    const { body } = await search({ q: "apple", limit: "3" });
    for (const item of body.items) expect(Object.keys(item).sort()).toEqual(["foodNumber", "name"]);
    expect(Object.keys(body).sort()).toEqual(["items", "limit", "page", "total"]);
  });

  test("an unknown group matches nothing and is not an error", async () => {
    const { status, body } = await search({ group: "9999" });
    expect(status).toBe(200);
    expect(body).toEqual({ items: [], total: 0, page: 1, limit: 20 });
  });

  test("empty parameters mean absent", async () => {
    const { status, body } = await search({ q: "", group: "", page: "", limit: "" });
    expect(status).toBe(200);
    expect(body.total).toBe(8789);
    expect(body.page).toBe(1);
    expect(body.limit).toBe(20);
  });
});

describe("paging is clamped, never an error", () => {
  const clamps: [Record<string, string>, number, number][] = [
    [{ limit: "0" }, 1, 1],
    [{ limit: "-5" }, 1, 1],
    [{ limit: "91" }, 1, 90],
    [{ limit: "100000000000000000000" }, 1, 90],
    [{ page: "0" }, 1, 20],
    [{ page: "-1" }, 1, 20],
    [{ page: "100000000000000000000" }, Number.MAX_SAFE_INTEGER, 20],
  ];
  for (const [params, page, limit] of clamps) {
    test(`${JSON.stringify(params)} is applied as page ${page}, limit ${limit}`, async () => {
      const { status, body } = await search({ q: "cheese", ...params });
      expect(status).toBe(200);
      expect(body.page).toBe(page);
      expect(body.limit).toBe(limit);
      expect(body.total).toBe(oracleMatches("cheese").length);
      expect(body.items.length).toBe(page === 1 ? Math.min(limit, body.total) : 0);
    });
  }

  for (const [name, value] of [["limit", "abc"], ["page", "1.5"], ["limit", "1e3"], ["page", "two"]] as const) {
    test(`${name}=${value} is 400 VALIDATION_ERROR naming the field`, async () => {
      const { status, body } = await search({ [name]: value });
      expect(status).toBe(400);
      expect(body.code).toBe("VALIDATION_ERROR");
      expect(body.message).toContain(name);
    });
  }
});

describe("q is literal text, never query syntax", () => {
  const hostile = ['"', "*", "chicken AND beef", "NEAR(", "-", "'", "%", "_", "chicken\"", "a:b", "^", "(", "OR", "\\", "'; DROP TABLE foods; --"];
  for (const q of hostile) {
    test(`q=${JSON.stringify(q)} is 200 and matches literally`, async () => {
      const { status, body } = await search({ q, limit: "90" });
      expect(status).toBe(200);
      expect(body.total).toBe(oracleMatches(q).length);
    });
  }

  test("q of 201 characters is 400; 200 is fine", async () => {
    expect((await search({ q: "a".repeat(201) })).status).toBe(400);
    const ok = await search({ q: "a".repeat(200) });
    expect(ok.status).toBe(200);
    expect(ok.body.total).toBe(0);
  });
});
