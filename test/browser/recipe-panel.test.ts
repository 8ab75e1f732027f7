import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { NutritionLabel } from "../../src/label/label";
import { labelSvg } from "../../src/label/svg";
import { artifactPath, guardedContext, NO_CHROMIUM, sharedServerAndBrowser } from "../helpers/browser";
import { insideOrJustAfter, layoutProblems, pageBox, shownMessages } from "../helpers/page-layout";
import { ROOT } from "../helpers/paths";

/**
 * The dashboard's "Analyze a recipe" panel and the food view's Nutrition Facts label (issues #30, #31), in
 * Chromium against the compiled binary at a desktop's 1280×900 and a phone's 375×740. What the page shows
 * is compared with what the API answers the same key for the same request, never with figures written
 * here. With SCREENSHOTS=1 the pictures docs/dashboard.md shows are taken again.
 */
const shared = sharedServerAndBrowser({ serverArgs: ["--workers", "1", "--auth-limit", "100/1m"] });
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 740 },
] as const;
const RECIPE = ["1 cup chopped onion", "2 tbsp olive oil", "salt to taste", "1 cup unicorn tears"];
/** The headline nutrients the panel shows, by SR28 number: energy, protein, fat, carbohydrate. */
const HEADLINE = ["208", "203", "204", "205"];

const picture = (name: string) => (process.env.SCREENSHOTS === "1" ? join(ROOT, "docs", name) : artifactPath(`docs-${name}`));

interface Analysis {
  items: { line: string; status: string; reason?: string; food: { foodNumber: string; name: string } | null; grams: number; confidence: number; alternatives: { foodNumber: string; name: string }[] }[];
  totals: { number: string; value: number | null }[];
  perServing: { grams: number; nutrients: { number: string; value: number | null }[] };
  label: NutritionLabel;
}

let accounts = 0;
/** The dashboard, signed up, with a new key in the playground: the page and the key. */
async function openWithKey(viewport: { width: number; height: number }) {
  const guarded = await guardedContext(shared.browser, shared.server.url, { viewport });
  const page = await guarded.context.newPage();
  await page.goto(`${shared.server.url}/`);
  await page.locator("#account-loading").waitFor({ state: "hidden" });
  await page.locator("#sign-up-name").fill("Ada");
  await page.locator("#sign-up-email").fill(`cook${++accounts}@example.com`);
  await page.locator("#sign-up-password").fill("a long password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByLabel("Key name").fill("kitchen");
  await page.getByRole("button", { name: "Issue key" }).click();
  await page.locator("#new-key").waitFor();
  const key = await page.locator("#new-key-value").inputValue();
  await page.getByRole("button", { name: "Use in the playground" }).click();
  return { ...guarded, page, key };
}

async function analyzeByApi(key: string, lines: string[], servings: number): Promise<Analysis> {
  const response = await fetch(`${shared.server.url}/v1/analyze`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ lines, servings, label: true }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Analysis;
}

const rowTexts = (page: Page) => page.locator("#recipe-rows tr").evaluateAll((rows) => rows.map((row) => [...(row as any).cells].map((cell: any) => cell.innerText.trim())));
const foodCell = (page: Page, row: number) => page.locator(`#recipe-rows tr:nth-child(${row + 1}) td:nth-child(2)`);

/** The text a label figure gives screen readers: its table's rows (name, amount, %DV), in order. */
const labelTable = (page: Page, scope: string) =>
  page.locator(`${scope} .label-lines tbody tr`).evaluateAll((rows) => rows.map((row) => [...(row as any).cells].map((cell: any) => cell.textContent.trim())));
const expectedLabelRows = (label: NutritionLabel) => label.lines.map((line) => [line.name, line.display, line.dv === null ? "" : `${line.dv}%`]);

/** The SVG the label figure's image shows, decoded from its data: URL, and whether it was drawn. */
async function labelImage(page: Page, scope: string) {
  const image = page.locator(`${scope} img.label-image`);
  await image.waitFor();
  const src = (await image.getAttribute("src"))!;
  expect(src.startsWith("data:image/svg+xml,")).toBe(true);
  const drawn = await image.evaluate((img: any) => img.complete && img.naturalWidth > 0);
  return { svg: decodeURIComponent(src.slice("data:image/svg+xml,".length)), drawn };
}

async function analyzeInPage(page: Page, lines: string[], servings: number) {
  await page.getByLabel("Ingredient lines").fill(lines.join("\n"));
  await page.getByLabel("Servings").fill(String(servings));
  await page.getByRole("button", { name: "Analyze", exact: true }).click();
  await page.locator("#recipe-summary", { hasText: "matched" }).waitFor();
}

describe.skipIf(NO_CHROMIUM)("the dashboard's recipe panel", () => {
  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}×${viewport.height}`;

    test(`${size}: a recipe's lines, foods, grams, reasons, totals per serving and label, as the API answers them; nothing covered or too wide`, async () => {
      const { page, context, outside, problems, key } = await openWithKey(viewport);
      await analyzeInPage(page, RECIPE, 2);
      const api = await analyzeByApi(key, RECIPE, 2);

      // One request per line, and the quota left said beside the button (a new key's window: 1000).
      expect(await page.locator("#recipe-cost").textContent()).toBe("Costs one request per line (a trial token has 30).");
      expect(await page.locator("#recipe-quota").textContent()).toBe(`${1000 - RECIPE.length} of 1000 requests in this window left.`);
      const rows = await rowTexts(page);
      expect(rows.map((row) => row[0])).toEqual(RECIPE);
      for (const [i, item] of api.items.entries()) {
        if (item.status === "matched") {
          expect(await foodCell(page, i).locator("select").evaluate((select: any) => select.selectedOptions[0].textContent)).toBe(item.food!.name);
          expect(rows[i]![2]).toBe(`${Math.round(item.grams * 10) / 10} g`);
          expect(rows[i]![3]).toBe(`${Math.round(item.confidence * 100)} %`);
        }
      }
      // Unmatched lines say why in words.
      expect(api.items.map((item) => item.reason ?? "")).toEqual(["", "", "quantity", "food"]);
      expect(await foodCell(page, 2).locator(".reason").textContent()).toBe("Not matched: no amount");
      expect(await foodCell(page, 3).locator(".reason").textContent()).toBe("Not matched: no food matched");
      expect(rows[3]![1]).toBe("Not matched: no food matched");

      // The headline totals, whole recipe and per serving, as the API's.
      const totals = await page.locator("#recipe-headline tbody tr").evaluateAll((trs) => trs.map((tr) => (tr as any).dataset.nutrient));
      expect(totals).toEqual(HEADLINE);
      for (const number of HEADLINE) {
        const cells = await page.locator(`#recipe-headline tr[data-nutrient="${number}"] td`).allTextContents();
        const total = api.totals.find((n) => n.number === number)!.value!;
        const per = api.perServing.nutrients.find((n) => n.number === number)!.value!;
        expect(cells.map((cell) => Number(cell.split(" ")[0]!.replaceAll(",", "")))).toEqual([total, per]);
      }
      // The full list is one click away, closed at first.
      expect(await page.locator("#recipe-all-nutrients").getAttribute("open")).toBeNull();
      await page.getByText("All nutrients").click();
      expect(await page.locator("#recipe-all-rows tr").count()).toBe(api.totals.length);

      // The serving's label: the label's own SVG, drawn, with its lines as a table for screen readers.
      const image = await labelImage(page, "#recipe-label");
      expect(image).toEqual({ svg: labelSvg(api.label), drawn: true });
      expect(await labelTable(page, "#recipe-label")).toEqual(expectedLabelRows(api.label));

      expect(await layoutProblems(page)).toEqual([]);
      await page.locator("#recipe").screenshot({ path: picture(viewport.width >= 1280 ? "dashboard-recipe.png" : "dashboard-recipe-375.png") });
      expect([outside, problems]).toEqual([[], []]);
      await context.close();
    });
  }

  test("choosing an alternative food re-analyses with that line's #number; a refusal is said inside the panel's form", async () => {
    const { page, context, outside, problems, key } = await openWithKey(VIEWPORTS[0]);
    // By weight, so that any food the line is forced to gives grams.
    const recipe = ["100 g cheddar cheese", "2 tbsp olive oil"];
    await analyzeInPage(page, recipe, 1);
    const before = await analyzeByApi(key, recipe, 1);
    const alternative = before.items[0]!.alternatives[0]!;
    await foodCell(page, 0).locator("select").selectOption(alternative.foodNumber);
    const forced = `${recipe[0]} #${alternative.foodNumber}`;
    await page.locator("#recipe-rows tr:first-child td:first-child", { hasText: `#${alternative.foodNumber}` }).waitFor();
    expect((await page.getByLabel("Ingredient lines").inputValue()).split("\n")).toEqual([forced, recipe[1]!]);
    expect(await foodCell(page, 0).locator("select").evaluate((select: any) => select.selectedOptions[0].textContent)).toBe(alternative.name);
    expect((await rowTexts(page))[0]![3]).toBe("100 %");
    // The focus stays on that line's food, for the next choice.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.closest("tr")?.rowIndex)).toBe(1);

    // Servings beyond what the API takes: its refusal, next to the form, about the servings field.
    await page.getByLabel("Servings").fill("1001");
    await page.getByRole("button", { name: "Analyze", exact: true }).click();
    const error = await page.locator("#recipe-error").filter({ hasText: /servings/i });
    await error.waitFor();
    expect(insideOrJustAfter(await pageBox(error), await pageBox(page.locator("#recipe-form")))).toBe(true);
    expect(await page.getByLabel("Servings").getAttribute("aria-invalid")).toBe("true");
    expect((await shownMessages(page)).map((message) => message.role)).toEqual(["alert"]);
    expect([outside, problems.filter((problem) => !/status of 400/.test(problem))]).toEqual([[], []]);
    await context.close();
  });

  test("from the keyboard alone: type the lines, tab to Analyze, pick another food with the arrow keys", async () => {
    const { page, context, outside, problems } = await openWithKey(VIEWPORTS[1]);
    await page.getByLabel("Ingredient lines").focus();
    await page.keyboard.type("100 g cheddar cheese");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Control+a");
    await page.keyboard.type("3");
    // Past the cost note to the button.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe("Analyze");
    await page.keyboard.press("Enter");
    await page.locator("#recipe-summary", { hasText: "matched" }).waitFor();
    // The results' summary has the focus; the next Tab reaches the first line's food.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe("recipe-summary");
    await page.keyboard.press("Tab");
    const first = await page.evaluate(() => (globalThis as any).document.activeElement.value);
    await page.keyboard.press("ArrowDown");
    await page.locator("#recipe-rows tr:first-child td:first-child", { hasText: "#" }).waitFor();
    const chosen = await page.evaluate(() => (globalThis as any).document.activeElement.value);
    expect(chosen).not.toBe(first);
    expect(await page.getByLabel("Ingredient lines").inputValue()).toBe(`100 g cheddar cheese #${chosen}`);
    expect(await layoutProblems(page)).toEqual([]);
    expect([outside, problems]).toEqual([[], []]);
    await context.close();
  });

  for (const viewport of VIEWPORTS) {
    test(`${viewport.width}×${viewport.height}: the food view shows the food's label, the route's SVG, its lines as a table for screen readers`, async () => {
      const { page, context, outside, problems, key } = await openWithKey(viewport);
      await page.getByLabel("Food name contains").fill("cheddar");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByRole("button", { name: "Cheese, cheddar (01009)" }).click();
      await page.locator("#food-name", { hasText: "Cheese, cheddar" }).waitFor();
      // The serving the nutrient table shows (100 g at first).
      const headers = { "x-api-key": key };
      const label = (await (await fetch(`${shared.server.url}/v1/foods/01009/label?grams=100`, { headers })).json()) as NutritionLabel;
      const svg = await (await fetch(`${shared.server.url}/v1/foods/01009/label?grams=100&format=svg`, { headers })).text();
      await page.locator("#food-label .label-lines caption", { hasText: "100 g" }).waitFor();
      expect(await labelImage(page, "#food-label")).toEqual({ svg, drawn: true });
      expect(await labelTable(page, "#food-label")).toEqual(expectedLabelRows(label));
      // Another amount, another label.
      await page.getByLabel("Amount").selectOption({ index: 1 });
      await page.locator("#food-label .label-lines caption", { hasText: "1 cup, diced" }).waitFor();
      const portion = (await (await fetch(`${shared.server.url}/v1/foods/01009/label?portion=1`, { headers })).json()) as NutritionLabel;
      expect(await labelTable(page, "#food-label")).toEqual(expectedLabelRows(portion));
      expect(await layoutProblems(page)).toEqual([]);
      expect([outside, problems]).toEqual([[], []]);
      await context.close();
    });
  }
});
