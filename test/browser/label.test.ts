import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import { DASHBOARD_CSP } from "../../src/dashboard/routes";
import { type NutritionLabel, nutritionLabel } from "../../src/label/label";
import { createFoodLabels } from "../../src/label/service";
import { labelSvg } from "../../src/label/svg";
import { artifactPath, NO_CHROMIUM, sharedBrowser } from "../helpers/browser";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

/**
 * The label's SVG in Chromium at 300 px wide: parsed as XML by the browser, drawn with nothing fetched,
 * under the dashboard's Content-Security-Policy, every text inside the panel, none on top of another or
 * of a rule. With SCREENSHOTS=1 the picture docs/label.md shows (docs/label-cheddar.png) is taken again.
 */
const shared = sharedBrowser();
const ORIGIN = "http://label.test";

let labels: ReturnType<typeof createFoodLabels>;
beforeAll(async () => {
  labels = createFoodLabels(await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache")));
});

/** A page whose only server is this test: `files` by path, each with the dashboard's policy; every other request refused and listed. */
async function pageServing(files: Record<string, { type: string; body: string }>) {
  const context = await shared.browser.newContext({ viewport: { width: 300, height: 700 }, deviceScaleFactor: 2 });
  const requested: string[] = [];
  const problems: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    requested.push(url.pathname);
    const file = url.origin === ORIGIN ? files[url.pathname] : undefined;
    if (!file) return route.abort("internetdisconnected");
    return route.fulfill({ status: 200, contentType: file.type, headers: { "content-security-policy": DASHBOARD_CSP }, body: file.body });
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return { context, page, requested, problems };
}

interface Box {
  kind: string;
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Every text and rule of the SVG document shown, as laid out on the page (CSS pixels). */
async function layout(page: Page): Promise<{ width: number; height: number; boxes: Box[]; parseErrors: number }> {
  // A string, run in the page (the tests' TypeScript has no DOM types).
  return page.evaluate<{ width: number; height: number; boxes: Box[]; parseErrors: number }>(`(() => {
    const frame = document.documentElement.getBoundingClientRect();
    const boxes = [...document.querySelectorAll("text, g > rect")].map((element) => {
      const r = element.getBoundingClientRect();
      return { kind: element.localName, text: element.textContent ?? "", left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
    return { width: frame.width, height: frame.height, boxes, parseErrors: document.getElementsByTagName("parsererror").length };
  })()`);
}

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

const CASES: [name: string, label: () => NutritionLabel][] = [
  ["label-cheddar", () => labels.label("01009", { portion: "6" })],
  // SR28's longest portion description, wrapped.
  ["label-steak", () => labels.label("17122", { portion: "2" })],
  // The widest figures: ten kilograms of butter.
  ["label-butter-10kg", () => labels.label("01001", { grams: "10000" })],
  ["label-nothing-known", () => nutritionLabel({ grams: 100, description: null }, new Map())],
];

describe.skipIf(NO_CHROMIUM)("the label's SVG in Chromium", () => {
  for (const [name, label] of CASES) {
    test(`${name}: drawn at 300 px, every text inside the panel, nothing on top of anything, nothing fetched`, async () => {
      const svg = labelSvg(label());
      const { context, page, requested, problems } = await pageServing({ "/label.svg": { type: "image/svg+xml", body: svg } });
      await page.goto(`${ORIGIN}/label.svg`);
      const { width, height, boxes, parseErrors } = await layout(page);
      expect(parseErrors).toBe(0);
      expect(width).toBe(300);
      const texts = boxes.filter((b) => b.kind === "text");
      expect(texts.length).toBeGreaterThan(20);
      for (const box of texts) {
        // Visible: a real size, inside the panel's box with its margin.
        expect([box.text, box.right - box.left > 3, box.bottom - box.top >= 9]).toEqual([box.text, true, true]);
        expect([box.text, box.left >= 4, box.right <= 296, box.top >= 0, box.bottom <= height]).toEqual([box.text, true, true, true, true]);
      }
      const collisions: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          if ((a.kind === "text" || b.kind === "text") && overlap(a, b)) collisions.push(`${a.kind} "${a.text}" × ${b.kind} "${b.text}"`);
        }
      }
      expect(collisions).toEqual([]);
      const shot = process.env.SCREENSHOTS === "1" && name === "label-cheddar" ? join(ROOT, "docs", `${name}.png`) : artifactPath(`${name}.png`);
      // A document whose root is <svg> has no body to measure a full page by: the viewport is made the panel's size.
      await page.setViewportSize({ width: 300, height: Math.ceil(height) });
      await page.screenshot({ path: shot });
      expect(requested).toEqual(["/label.svg"]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test("as an image on a page under the dashboard's policy: drawn, with no other request and no violation", async () => {
    const svg = labelSvg(labels.label("01009", { portion: "6" }));
    const html = `<!doctype html><html><head><title>label</title></head><body><img id="label" src="/label.svg" width="300" alt="Nutrition Facts"></body></html>`;
    const { context, page, requested, problems } = await pageServing({ "/": { type: "text/html", body: html }, "/label.svg": { type: "image/svg+xml", body: svg } });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction("document.getElementById('label').complete");
    const drawn = await page.evaluate<{ natural: number; shown: number }>(
      "({ natural: document.getElementById('label').naturalWidth, shown: document.getElementById('label').getBoundingClientRect().width })",
    );
    expect(drawn).toEqual({ natural: 300, shown: 300 });
    expect(requested.filter((path) => path !== "/favicon.ico")).toEqual(["/", "/label.svg"]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
