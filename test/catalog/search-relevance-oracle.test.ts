import { expect, test } from "bun:test";
import { sr28File } from "../helpers/sr28-files";
import { testAppWithKey } from "../helpers/test-app";

/**
 * The whole relevance order, not only its first results: docs/api.md's rules ("Search relevance") restated
 * plainly here over FOOD_DES as SR28 ships it (regexes and string splits, no code shared with
 * src/catalog/ranking.ts, which reads names in place for speed), and every page of the API's answer walked
 * against it, for single- and multi-word queries, common words with thousands of matches, and terms with
 * punctuation.
 */
const suite = testAppWithKey();

interface Food {
  foodNumber: string;
  group: string;
  name: string;
  manufacturer: string;
}

/** FOOD_DES: `~NDB_No~^~FdGrp_Cd~^~Long_Desc~^~Shrt_Desc~^~ComName~^~ManufacName~^...` (SR28 names are ASCII). */
const foods: Food[] = sr28File("FOOD_DES.txt").toString("latin1").split(/\r?\n/).filter(Boolean).map((line) => {
  const fields = line.split("^").map((field) => field.replace(/^~|~$/g, ""));
  return { foodNumber: fields[0]!, group: fields[1]!, name: fields[2]!, manufacturer: fields[5]! };
});

const NOT_BRANDS = ["USDA", "BBQ", "DHA", "ARA", "NFS"];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const words = (text: string) => text.split(/[^a-z0-9]+/).filter(Boolean);
const isForm = (word: string, term: string) => [term, `${term}s`, `${term}es`].includes(word);

function expectedOrder(q: string): string[] {
  const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
  const wordTerms = [...new Set(terms)].filter((term) => /^[a-z0-9]+$/.test(term));
  const keyOf = (food: Food): (number | string)[] => {
    const name = food.name.toLowerCase();
    // 1. Every term a whole word (or its plural in s/es) 0, every term at least starting a word 1, else 2.
    const match = Math.max(
      ...terms.map((term) =>
        new RegExp(`(^|[^a-z0-9])${escape(term)}(s|es)?([^a-z0-9]|$)`).test(name) ? 0 : new RegExp(`(^|[^a-z0-9])${escape(term)}`).test(name) ? 1 : 2,
      ),
    );
    // 2. Branded: a manufacturer, groups 2100/3600, or a capitalised brand of three or more capitals.
    const capitalised = food.name.match(/\b[A-Z][A-Z'&.-]*[A-Z]\b/g) ?? [];
    const branded = food.manufacturer !== "" || ["2100", "3600"].includes(food.group) || capitalised.some((w) => w.replace(/[^A-Z]/g, "").length >= 3 && !NOT_BRANDS.includes(w));
    // 3. The head: leading parts made only of query words, using every term 0, some 1; a later such part 2; none 3.
    const parts = name.split(",");
    const madeOfQueryWords = (part: string) => words(part).length > 0 && words(part).every((w) => wordTerms.some((term) => isForm(w, term)));
    let leading = 0;
    while (leading < parts.length && madeOfQueryWords(parts[leading]!)) leading++;
    const used = new Set(parts.slice(0, leading).flatMap(words).map((w) => wordTerms.find((term) => isForm(w, term))));
    const head = leading > 0 ? (used.size === new Set(terms).size ? 0 : 1) : parts.some(madeOfQueryWords) ? 2 : 3;
    // 4. Fewer parts, then the shorter name; 5. food number.
    return [match, branded ? 1 : 0, head, parts.length, food.name.length, food.foodNumber];
  };
  const compare = (a: (number | string)[], b: (number | string)[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  };
  return foods
    .filter((food) => terms.every((term) => food.name.toLowerCase().includes(term)))
    .map((food) => ({ food, key: keyOf(food) }))
    .sort((a, b) => compare(a.key, b.key))
    .map(({ food }) => food.foodNumber);
}

async function everyPage(q: string): Promise<string[]> {
  const numbers: string[] = [];
  for (let page = 1; page <= 200; page++) {
    const response = await suite.app.request(`/v1/foods?${new URLSearchParams({ q, limit: "100", page: String(page) })}`, { headers: { "x-api-key": suite.key } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: { foodNumber: string }[]; total: number };
    numbers.push(...body.items.map((item) => item.foodNumber));
    if (numbers.length >= body.total || body.items.length === 0) break;
  }
  return numbers;
}

// Everyday words, words with thousands of matches, several words, repeated and plural terms, prefixes, word
// insides, and terms with punctuation (never a "query word" of key 3).
const QUERIES = [
  "apple", "apples", "cheese", "cheddar", "chicken breast", "whole milk", "raw", "cooked", "oil", "beef ground",
  "milk milk", "apple apples", "tomato", "berries", "berry", "app", "ese", "2%", "milk 2%", "ham n cheddar",
  "mcdonald's", "with salt", "fat free", "rice white", "soup", "bread wheat", "egg", "pork", "fish", "juice orange",
];

for (const q of QUERIES) {
  test(`q=${q}: every page in the guide's relevance order`, async () => {
    const expected = expectedOrder(q);
    expect(expected.length).toBeGreaterThan(0);
    expect(await everyPage(q)).toEqual(expected);
  });
}
