import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { startServer } from "../helpers/binary";
import { oracleFoodValues, oraclePortions, oracleScaled } from "../helpers/sr28-oracle";
import { artifactPath, guardedContext, NO_CHROMIUM, sharedServerAndBrowser } from "../helpers/browser";

/** The dashboard in Debian's Chromium against the compiled binary, with no network beyond it. */
const shared = sharedServerAndBrowser();

async function openDashboard(options: { clipboard?: boolean; viewport?: { width: number; height: number }; url?: string } = {}) {
  const url = options.url ?? shared.server.url;
  const guarded = await guardedContext(shared.browser, url, options);
  const page = await guarded.context.newPage();
  await page.goto(`${url}/`);
  await page.locator("#account-loading").waitFor({ state: "hidden" });
  return { ...guarded, page };
}

async function signUp(page: Page, email: string) {
  await page.getByLabel("Name", { exact: true }).fill("Ada");
  await page.locator("#sign-up-email").fill(email);
  await page.locator("#sign-up-password").fill("a long password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.locator("#user-email", { hasText: email }).waitFor();
}

const keyRow = (page: Page, name: string) => page.locator("#key-rows tr", { hasText: name });
/** A message area's text (src/dashboard/web/messages.ts): `sign-up-error`, `key-list-status`, … */
const messageText = (page: Page, id: string) => page.locator(`#${id}`).textContent();

describe.skipIf(NO_CHROMIUM)("the dashboard", () => {
  test("sign up → issue a key → it is listed → it works from outside → revoke → it is gone", async () => {
    const { page, context, outside, problems } = await openDashboard();
    await page.screenshot({ path: artifactPath("dashboard-signed-out.png") });
    await signUp(page, "ada@example.com");

    await page.getByLabel("Key name").fill("laptop");
    await page.getByRole("button", { name: "Issue key" }).click();
    const key = page.locator("#new-key-value");
    await key.waitFor();
    const plaintext = await key.inputValue();
    expect(plaintext).toMatch(/^fnk_[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await page.locator("#new-key").textContent()).toContain("you will not see it again");
    await keyRow(page, "laptop").locator("code", { hasText: `${plaintext.slice(0, 12)}…` }).waitFor();
    await page.screenshot({ path: artifactPath("dashboard-keys.png") });

    // The new key in the playground: search, then one food's nutrients (the README's screenshot).
    await page.getByRole("button", { name: "Use in the playground" }).click();
    expect(await page.locator("#playground-key").inputValue()).toBe(plaintext);
    await page.getByLabel("Food name contains").fill("cheddar");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#result-list li").first().getByRole("button", { name: "Cheese, cheddar (01009)" }).click();
    await page.locator("#food-name", { hasText: "Cheese, cheddar" }).waitFor();
    await page.locator("#quota", { hasText: "of 1000 requests in this window left." }).waitFor();
    await page.screenshot({ path: artifactPath("dashboard.png"), fullPage: true });

    // The key, as a script would use it: a plain HTTP request from outside the browser.
    const search = await fetch(`${shared.server.url}/v1/foods?q=cheddar&limit=3`, { headers: { "x-api-key": plaintext } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as any).items[0].name).toContain("Cheese, cheddar");

    await keyRow(page, "laptop").getByRole("button", { name: "Revoke key laptop" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this key?" });
    await dialog.getByText("“laptop”", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await keyRow(page, "laptop").waitFor({ state: "detached" });
    await page.locator("#no-keys").waitFor();
    expect(await messageText(page, "key-list-status")).toBe("Key “laptop” revoked.");
    expect((await fetch(`${shared.server.url}/v1/foods?q=cheddar`, { headers: { "x-api-key": plaintext } })).status).toBe(401);

    // A reload keeps the session (the HttpOnly cookie), and the list is still empty.
    await page.reload();
    await page.locator("#user-email", { hasText: "ada@example.com" }).waitFor();
    await page.locator("#no-keys").waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.locator("#signed-out").waitFor();
    expect(await page.locator("#keys").isHidden()).toBe(true);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("trial panel: the widget solves the challenge in the page; the playground finds cheddar and shows nutrients", async () => {
    const { page, context, outside, problems } = await openDashboard();
    const checkbox = page.getByRole("checkbox", { name: /not a robot/i });
    await checkbox.focus();
    await page.keyboard.press("Space");
    await page.locator("#trial-info").waitFor({ timeout: 30_000 });
    // The group list comes with the page: it costs the token nothing.
    await page.locator("#search-group option", { hasText: "Dairy and Egg Products" }).waitFor({ state: "attached" });
    expect(await page.locator("#trial-remaining").textContent()).toBe("30");
    expect(await page.getByLabel("Trial token").isChecked()).toBe(true);
    // With the trial token chosen there is no key field to type into; choosing "API key" brings it back.
    expect(await page.locator("#playground-key").isVisible()).toBe(false);
    await page.getByLabel("API key", { exact: true }).first().check();
    expect(await page.locator("#playground-key").isVisible()).toBe(true);
    await page.getByLabel("Trial token").check();
    expect(await page.locator("#playground-key").isVisible()).toBe(false);

    await page.getByLabel("Food name contains").fill("cheddar");
    await page.getByLabel("Food group").selectOption("0100");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#results").waitFor();
    const first = page.locator("#result-list li").first();
    expect(await first.textContent()).toBe("Cheese, cheddar (01009)");
    expect(await page.locator("#result-summary").textContent()).toMatch(/^\d+ foods matching “cheddar”\.$/);
    expect(await page.locator("#trial-remaining").textContent()).toBe("29");
    expect(await page.locator("#quota").textContent()).toBe("29 of 30 trial requests left.");

    await first.getByRole("button").click();
    await page.locator("#food-detail").waitFor();
    expect(await page.locator("#food-name").textContent()).toBe("Cheese, cheddar");
    const protein = page.locator("#nutrient-rows tr", { has: page.getByRole("cell", { name: "Protein", exact: true }) });
    expect(await protein.locator("td").allTextContents()).toEqual(["Protein", "22.87", "g"]);
    // The search, the detail and the food's label: three of the 30.
    await page.locator("#food-label img").waitFor();
    expect(await page.locator("#trial-remaining").textContent()).toBe("27");
    await page.locator("#playground").screenshot({ path: artifactPath("dashboard-playground.png") });
    await page.screenshot({ path: artifactPath("dashboard-trial.png"), fullPage: true });

    // Paging: the next page of all foods, 10 at a time.
    await page.getByLabel("Food name contains").fill("");
    await page.getByLabel("Food group").selectOption("");
    await page.getByLabel("Results per page").selectOption("10");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#page-info", { hasText: "Page 1 of 879" }).waitFor();
    expect(await page.getByRole("button", { name: "Previous page" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Next page" }).click();
    await page.locator("#page-info", { hasText: "Page 2 of 879" }).waitFor();
    expect(await page.locator("#result-list li").count()).toBe(10);

    // A reload keeps the token for the tab, with what is left of it.
    await page.reload();
    await page.locator("#trial-info").waitFor();
    expect(await page.locator("#trial-remaining").textContent()).toBe("25");
    expect(await page.getByLabel("Trial token").isChecked()).toBe(true);
    await page.getByLabel("Food name contains").fill("apple");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#trial-remaining", { hasText: "24" }).waitFor();

    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("playground detail: a portion or grams show scaled amounts; refuse and footnotes are shown", async () => {
    const { page, context, outside, problems } = await openDashboard();
    await signUp(page, "portions@example.com");
    await page.getByLabel("Key name").fill("portions");
    await page.getByRole("button", { name: "Issue key" }).click();
    await page.locator("#new-key-value").waitFor();
    await page.getByRole("button", { name: "Use in the playground" }).click();
    await page.getByLabel("Food name contains").fill("cheddar");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#result-list li").first().getByRole("button", { name: "Cheese, cheddar (01009)" }).click();
    await page.locator("#food-name", { hasText: "Cheese, cheddar" }).waitFor();
    const protein = () => page.locator("#nutrient-rows tr", { has: page.getByRole("cell", { name: "Protein", exact: true }) }).locator("td").nth(1).textContent();
    const protein100 = oracleFoodValues("01009").find((v) => v.nutrientNumber === "203")!;
    expect(await protein()).toBe(protein100.text);
    expect(await page.locator("#food-refuse").textContent()).toBe("No refuse: all of it is edible.");

    // Every portion of the food is offered; picking one shows its amounts at once.
    const portions = oraclePortions("01009");
    expect(await page.locator("#amount-portion option").count()).toBe(portions.length + 1);
    const slice = portions.find((p) => p.gramsText === "28.35")!;
    await page.getByLabel("Amount").selectOption(String(slice.seq));
    await page.locator("#nutrient-caption", { hasText: "(28.35 g)" }).waitFor();
    expect(await protein()).toBe(String(Number(oracleScaled(protein100.text, slice.gramsText, protein100.decimals))));

    // Grams typed in.
    await page.getByLabel("or grams").fill("50");
    await page.getByRole("button", { name: "Show amounts" }).click();
    await page.locator("#nutrient-caption", { hasText: "Nutrients per 50 g of edible portion" }).waitFor();
    expect(await protein()).toBe(String(Number(oracleScaled(protein100.text, "50", protein100.decimals))));
    expect(await page.getByLabel("Amount").inputValue()).toBe("");

    // A food with footnotes.
    await page.getByLabel("Food name contains").fill("chili powder");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#result-list li").getByRole("button", { name: /\(02009\)$/ }).click();
    await page.locator("#food-footnotes li").first().waitFor();
    expect(await page.locator("#food-footnotes-section").isVisible()).toBe(true);
    expect(await page.locator("#nutrient-caption").textContent()).toBe("Nutrients per 100 g of edible portion");
    await page.locator("#playground").screenshot({ path: artifactPath("dashboard-portions.png") });
    expect([outside, problems]).toEqual([[], []]);
    await context.close();
  });

  test("playground: sort by a nutrient, filter by one, numbering continues on page 2 and the old detail goes", async () => {
    const { page, context, outside, problems } = await openDashboard();
    await signUp(page, "sorter@example.com");
    await page.getByLabel("Key name").fill("sorting");
    await page.getByRole("button", { name: "Issue key" }).click();
    // Read once it is shown: before the answer the field is still empty.
    await page.locator("#new-key").waitFor();
    const key = await page.locator("#new-key-value").inputValue();
    await page.getByRole("button", { name: "Use in the playground" }).click();

    // Highest protein first, as the API orders it, each item showing its value.
    await page.getByLabel("Sort by").selectOption({ label: "Protein (g)" });
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#page-info", { hasText: "Page 1 of" }).waitFor();
    const expected = (await (await fetch(`${shared.server.url}/v1/foods?sort=nutrient.203&limit=40`, { headers: { "x-api-key": key } })).json()) as any;
    const firstItems = await page.locator("#result-list li").allTextContents();
    expect(firstItems.length).toBe(20);
    firstItems.forEach((text, i) => {
      const { name, foodNumber, nutrients } = expected.items[i];
      expect(text).toBe(`${name} (${foodNumber}) · Protein ${nutrients[0].value} g`);
    });
    expect(await page.locator("#result-list").getAttribute("start")).toBe("1");

    // A food's detail, then the next page: numbered from 21, and the detail of page 1 is gone.
    await page.locator("#result-list li").first().getByRole("button").click();
    await page.locator("#food-detail").waitFor();
    await page.getByRole("button", { name: "Next page" }).click();
    await page.locator("#page-info", { hasText: "Page 2 of" }).waitFor();
    expect(await page.locator("#result-list").getAttribute("start")).toBe("21");
    expect(await page.locator("#result-list li").first().textContent()).toContain(`${expected.items[20].name} (${expected.items[20].foodNumber})`);
    expect(await page.locator("#food-detail").isHidden()).toBe(true);

    // A filter: cheeses with at most 100 mg sodium, lowest protein first; every value shown is in range.
    await page.getByLabel("Food name contains").fill("cheese");
    await page.getByLabel("Order").selectOption({ label: "Lowest / A to Z first" });
    await page.getByLabel("Nutrient", { exact: true }).selectOption({ label: "Sodium, Na (mg)" });
    await page.getByLabel("At most").fill("100");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#page-info", { hasText: "Page 1 of" }).waitFor();
    const filtered = (await (await fetch(`${shared.server.url}/v1/foods?q=cheese&sort=nutrient.203&order=asc&nutrient.307=..100`, { headers: { "x-api-key": key } })).json()) as any;
    expect(filtered.total).toBeGreaterThan(0);
    expect(await page.locator("#result-summary").textContent()).toBe(`${filtered.total} foods matching “cheese”.`);
    expect(await page.locator("#result-list li").first().textContent()).toBe(
      `${filtered.items[0].name} (${filtered.items[0].foodNumber}) · Protein ${filtered.items[0].nutrients[0].value} g · Sodium, Na ${filtered.items[0].nutrients[1].value} mg`,
    );
    expect(await page.locator("#result-list").getAttribute("start")).toBe("1");
    await page.locator("#playground").screenshot({ path: artifactPath("dashboard-playground-sorted.png") });

    expect([outside, problems]).toEqual([[], []]);
    await context.close();
  });

  test("sign-up works at http://localhost:PORT and at http://127.0.0.1:PORT of the same server", async () => {
    const port = new URL(shared.server.url).port;
    for (const [host, email] of [["localhost", "local@example.com"], ["127.0.0.1", "loop@example.com"]] as const) {
      const { page, context, outside, problems } = await openDashboard({ url: `http://${host}:${port}` });
      await signUp(page, email);
      // Signed up, the next thing to do has the focus.
      expect(await page.evaluate("document.activeElement?.id")).toBe("key-name");
      expect([outside, problems]).toEqual([[], []]);
      await context.close();
    }
  });

  for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 740 }]) {
    test(`a playground error is shown inside the viewport (${viewport.width}×${viewport.height}), and stale results go`, async () => {
      const { page, context, problems } = await openDashboard({ viewport });
      await page.getByLabel("API key", { exact: true }).first().check();
      await page.locator("#playground-key").fill("fnk_not-a-real-key");
      await page.getByLabel("Food name contains").fill("cheddar");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const error = page.locator("#search-error", { hasText: "A valid API key or trial token is required." });
      await error.waitFor();
      const box = (await error.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(await page.locator("#results").isHidden()).toBe(true);
      await page.screenshot({ path: artifactPath(`dashboard-error-${viewport.width}.png`) });
      expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
      await context.close();
    });
  }

  test("a refused challenge says how long to wait", async () => {
    const limited = await startServer({ args: ["--workers", "1", "--trial-ip-limit", "1/1h"] });
    try {
      for (const attempt of ["first", "second"]) {
        const { page, context } = await openDashboard({ url: limited.url });
        await page.getByRole("checkbox", { name: /not a robot/i }).focus();
        await page.keyboard.press("Space");
        if (attempt === "first") await page.locator("#trial-info").waitFor({ timeout: 30_000 });
        else await page.locator("#trial-error", { hasText: /^Too many trial challenges from your network\. Try again in \d+ minutes\.$/ }).waitFor();
        await context.close();
      }
    } finally {
      expect(await limited.stop()).toBe(0);
    }
  });

  test("a request sent while signed in that comes back 401 after signing out does not say the session ended", async () => {
    const { page, context } = await openDashboard();
    // The session list the page asks for on signing in is held until the user has signed out here.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route("**/api/auth/list-sessions", async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await signUp(page, "late-answer@example.com");
    for (let waited = 0; !asked && waited < 5_000; waited += 20) await page.waitForTimeout(20);
    expect(asked).toBe(true);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.locator("#signed-out").waitFor();

    const late = page.waitForResponse("**/api/auth/list-sessions");
    release();
    expect((await late).status()).toBe(401);
    await page.waitForTimeout(200);
    expect(await page.locator(".message.error:not(:empty)").count()).toBe(0);
    expect(await messageText(page, "account-status")).toBe("Signed out.");
    await context.close();
  });

  test("API refusals appear as messages: a taken e-mail, a wrong password, a bad key", async () => {
    const { page, context, outside } = await openDashboard();
    await signUp(page, "taken@example.com");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.locator("#signed-out").waitFor();

    await signUpExpectingFailure(page, "taken@example.com");
    expect(await messageText(page, "sign-up-error")).toBe("Sign-up failed: An account with this e-mail already exists. Use another e-mail.");

    await page.locator("#sign-in-email").fill("taken@example.com");
    await page.locator("#sign-in-password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("#sign-in-error", { hasText: "Sign-in failed: Invalid e-mail or password." }).waitFor();

    await page.locator("#playground-key").fill("fnk_not-a-real-key");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#search-error", { hasText: "A valid API key or trial token is required." }).waitFor();
    expect(await page.locator("#search-error").getAttribute("role")).toBe("alert");
    await page.screenshot({ path: artifactPath("dashboard-error.png") });
    expect(outside).toEqual([]);
    await context.close();
  });

  test("keyboard only: sign in, issue and copy a key, cancel then confirm a revoke; every field has a label", async () => {
    const { page, context, outside, problems } = await openDashboard({ clipboard: true });
    const unlabelled = await page.evaluate<string[]>(
      `[...document.querySelectorAll("input:not([type=hidden]), select, textarea")]
        .filter((field) => field.labels.length === 0 && !field.getAttribute("aria-label") && !field.getAttribute("aria-labelledby"))
        .map((field) => field.outerHTML)`,
    );
    expect(unlabelled).toEqual([]);

    await page.locator("#sign-up-name").fill("Kay");
    await page.locator("#sign-up-email").fill("keys@example.com");
    await page.locator("#sign-up-password").fill("a long password");
    await page.locator("#sign-up-password").press("Enter");
    await page.locator("#signed-in").waitFor();

    await page.getByLabel("Key name").focus();
    await page.keyboard.type("ci");
    await page.keyboard.press("Enter");
    await page.locator("#new-key").waitFor();
    expect(await activeElementId(page)).toBe("copy-key");
    expect(await page.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle")).not.toBe("none");
    await page.keyboard.press("Enter");
    await page.locator("#new-key-status", { hasText: "Key copied to the clipboard." }).waitFor();
    const plaintext = await page.locator("#new-key-value").inputValue();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(plaintext);

    const revoke = keyRow(page, "ci").getByRole("button", { name: "Revoke key ci" });
    await revoke.focus();
    await page.keyboard.press("Enter");
    expect(await activeElementText(page)).toBe("Cancel");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await keyRow(page, "ci").count()).toBe(1);

    await revoke.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await activeElementText(page)).toBe("Revoke key");
    await page.keyboard.press("Enter");
    await keyRow(page, "ci").waitFor({ state: "detached" });
    expect((await fetch(`${shared.server.url}/v1/nutrients`, { headers: { "x-api-key": plaintext } })).status).toBe(401);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

async function signUpExpectingFailure(page: Page, email: string) {
  await page.getByLabel("Name", { exact: true }).fill("Again");
  await page.locator("#sign-up-email").fill(email);
  await page.locator("#sign-up-password").fill("another long password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.locator("#sign-up-error:not(:empty)").waitFor();
}

const activeElementId = (page: Page) => page.evaluate<string>("document.activeElement.id");
const activeElementText = (page: Page) => page.evaluate<string>("document.activeElement.textContent.trim()");
