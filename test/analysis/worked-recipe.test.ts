import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/paths";
import { testAppWithKey } from "../helpers/test-app";

/**
 * docs/analysis.md's worked recipe is the served answer, not a typed one: each row of its table, and its
 * totals, are held to what POST /v1/analyze answers for the same body (the body is in the doc too).
 */
const doc = readFileSync(join(ROOT, "docs/analysis.md"), "utf8");
const section = doc.slice(doc.indexOf("## A worked recipe"), doc.indexOf("## How a line is read"));

const suite = testAppWithKey();

interface Item {
  line: string;
  status: string;
  reason?: string;
  food?: { foodNumber: string; name: string } | null;
  portion?: { description: string } | null;
  grams: number;
  confidence: number;
}

test("docs/analysis.md's worked recipe is what the route answers, row for row", async () => {
  const servings = Number(/"servings": (\d+)/.exec(section)![1]);
  const nutrients = JSON.parse(/"nutrients": (\[[^\]]*\])/.exec(section)![1]!.replace(/\s+/g, "")) as string[];
  const rows = section
    .split("\n")
    .filter((row) => row.startsWith("| ") && !row.startsWith("| line") && !row.startsWith("|---"))
    .map((row) => row.split("|").slice(1, -1).map((cell) => cell.trim()));
  expect(rows.length).toBeGreaterThan(5);
  const response = await suite.app.request("/v1/analyze", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": suite.key },
    body: JSON.stringify({ lines: rows.map((row) => row[0]), servings, nutrients }),
  });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { items: Item[]; totalGrams: number; totals: { value: number }[]; perServing: { grams: number; nutrients: { value: number }[] } };
  const served = answer.items.map((item) => [
    item.line,
    item.status === "matched" ? "matched" : `unmatched, \`${item.reason}\``,
    item.food ? `${item.food.foodNumber} ${item.food.name}` : "",
    item.portion?.description ?? "",
    String(item.grams),
    String(item.confidence),
  ]);
  expect(served).toEqual(rows);
  const figures = (text: string) => text.replace(/,(\d{3})/g, "$1");
  const said = figures(section);
  expect(said).toContain(`\`totalGrams\` ${answer.totalGrams}`);
  const [kcal, protein, fat, carbohydrate] = answer.totals.map((total) => total.value);
  expect(said).toContain(`totals ${kcal} kcal, ${protein} g protein, ${fat} g fat, ${carbohydrate} g carbohydrate`);
  const perServing = answer.perServing.nutrients.map((nutrient) => nutrient.value);
  expect(said).toContain(`(${answer.perServing.grams} g) ${perServing[0]} kcal, ${perServing[1]} g, ${perServing[2]} g and ${perServing[3]} g`);
});
