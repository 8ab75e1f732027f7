import { describe, expect, test } from "bun:test";
import { artifactPath, guardedContext, NO_CHROMIUM, sharedServerAndBrowser } from "../helpers/browser";

/**
 * The API reference and the dashboard with no network at all beyond the server: every other request is
 * aborted and recorded, and none may be attempted, including fonts, scripts and telemetry.
 */
const shared = sharedServerAndBrowser();

/** The document's operations, and whether /docs is told to leave each out (`x-scalar-ignore`). */
async function operations(): Promise<{ method: string; summary: string; ignored: boolean }[]> {
  const document = (await (await fetch(`${shared.server.url}/openapi/json`)).json()) as {
    paths: Record<string, Record<string, { summary: string; "x-scalar-ignore"?: boolean }>>;
  };
  return Object.values(document.paths).flatMap((item) =>
    Object.entries(item).map(([method, operation]) => ({ method, summary: operation.summary, ignored: operation["x-scalar-ignore"] === true })),
  );
}

describe.skipIf(NO_CHROMIUM)("offline pages", () => {
  test("/docs renders every operation from the embedded Scalar bundle, attempting no other host", async () => {
    const { context, outside, problems } = await guardedContext(shared.browser, shared.server.url);
    const page = await context.newPage();
    await page.goto(`${shared.server.url}/docs`, { waitUntil: "networkidle" });
    const all = await operations();
    const shown = all.filter((operation) => !operation.ignored).map((operation) => operation.summary);
    for (const summary of shown) {
      await page.getByText(summary, { exact: true }).first().waitFor({ state: "attached" });
    }
    await page.getByRole("heading", { name: "Rate limits" }).waitFor();
    // The sidebar lists each operation once: the data routes' HEAD is documented (and said on each GET),
    // not listed a second time as "(headers only)".
    // Every HEAD is left out, and nothing else (one HEAD per GET answered by the dispatcher, however many).
    const heads = all.filter((operation) => operation.method === "head");
    expect(heads.length).toBeGreaterThanOrEqual(5);
    expect(all.filter((operation) => operation.ignored)).toEqual(heads.map((head) => ({ ...head, ignored: true })));
    const listed = (await page.getByRole("navigation", { name: /^Sidebar for / }).locator("button", { hasText: "HTTP Method:" }).allTextContents()).map(
      (text) => text.replace(/HTTP Method:\s*\w+$/, ""),
    );
    expect(listed.sort()).toEqual(shown.sort());
    await page.screenshot({ path: artifactPath("docs.png") });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("/ loads completely (styles, widget, script) with every non-loopback request blocked", async () => {
    const { context, outside, problems } = await guardedContext(shared.browser, shared.server.url);
    const page = await context.newPage();
    await page.goto(`${shared.server.url}/`, { waitUntil: "networkidle" });
    await page.getByRole("checkbox", { name: /not a robot/i }).waitFor();
    await page.locator("#signed-out").waitFor();
    // The stylesheet applied: panels have their background, the hidden panels are really hidden.
    expect(await page.evaluate<string>("getComputedStyle(document.getElementById('account')).backgroundColor")).toBe("rgb(255, 255, 255)");
    expect(await page.locator("#keys").isHidden()).toBe(true);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("the guards work: an inline script breaks the page's policy and is reported, a request elsewhere is caught", async () => {
    // Without this, "no problems, nothing outside" above could be the silence of a watcher that sees nothing.
    const { context, problems, outside } = await guardedContext(shared.browser, shared.server.url);
    const page = await context.newPage();
    await page.goto(`${shared.server.url}/`);
    // The browser reports the refusal on the console: waited for from before the script goes in.
    const refused = page.waitForEvent("console", { predicate: (message) => message.text().includes("Content Security Policy"), timeout: 5_000 });
    await page.evaluate("document.body.append(Object.assign(document.createElement('script'), { textContent: 'window.injected = 1' }))");
    expect(await page.evaluate("window.injected")).toBeUndefined();
    await refused;
    expect(problems.join("\n")).toContain("Content Security Policy");
    await page.goto("https://fonts.example/font.woff2").catch(() => undefined);
    expect(outside).toEqual(["https://fonts.example/font.woff2"]);
    await context.close();
  });
});
