import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createFoodSearch } from "../../src/catalog/service";
import type { PreparedJson } from "../../src/platform/http/content-encoding";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

/**
 * The search's answer caches, through `createFoodSearch` over the built catalog: an answer kept is the same
 * object when asked again, so identity tells a kept answer from a recomputed one.
 */
let search: ReturnType<typeof createFoodSearch>;
let close: () => void;
beforeAll(async () => {
  const store = await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache"));
  close = () => store.close();
  search = createFoodSearch(store);
});
afterAll(() => close());

const bodyOf = (answer: PreparedJson | string) => {
  const body = typeof answer === "string" ? answer : answer.open("identity").body();
  return JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
};

describe("answers that list nothing", () => {
  test("a page past the last is kept, as its own answer: the same total, no items", () => {
    const first = search.answerForQuery("q=cheddar&limit=5");
    const { total } = bodyOf(first);
    expect(total).toBeGreaterThan(5);
    const pastLast = `q=cheddar&limit=5&page=${Math.ceil(total / 5) + 1}`;
    const empty = search.answerForQuery(pastLast);
    expect(bodyOf(empty)).toEqual({ items: [], total, page: Math.ceil(total / 5) + 1, limit: 5 });
    // Kept: an answer made for one request only is its JSON text, a kept one an object, the same next time.
    expect(typeof empty).toBe("object");
    expect(search.answerForQuery(pastLast)).toBe(empty);
  });

  test("a stream of distinct empty pages and names that match nothing churns only its own cache: a real answer stays kept", () => {
    const real = search.answerForQuery("q=apple&sort=nutrient.203&order=desc");
    expect(bodyOf(real).items.length).toBeGreaterThan(0);
    const firstEmpty = search.answerForQuery("q=apple&page=100000");
    expect(typeof firstEmpty).toBe("object");
    // More than the answer cache itself holds (8 MB), were they kept there.
    for (let i = 0; i < 30_000; i++) {
      const query = i % 2 ? `q=apple&page=${100_001 + i}` : `q=${i.toString(36)}zqzq`;
      expect(bodyOf(search.answerForQuery(query)).items).toEqual([]);
    }
    // The real answer was not pushed out; the first empty one was (its cache is bounded), and is made again.
    expect(search.answerForQuery("q=apple&sort=nutrient.203&order=desc")).toBe(real);
    const again = search.answerForQuery("q=apple&page=100000");
    expect(again).not.toBe(firstEmpty);
    expect(bodyOf(again)).toEqual(bodyOf(firstEmpty));
  });
});
