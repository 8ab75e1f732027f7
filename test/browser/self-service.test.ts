import { describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { artifactPath, guardedContext, NO_CHROMIUM, sharedServerAndBrowser } from "../helpers/browser";
import { jsonPost, sessionCookie } from "../helpers/http";
import { pollUntil } from "../helpers/wait";

/**
 * The dashboard's account self-service and usage per key (issue 18, design §13) in Debian's Chromium
 * against the compiled binary, with no network beyond it. A free tier of 4 requests per hour makes 429s
 * cheap to produce for the usage chart; the auth limit is raised for the file's sign-ins.
 */
const FREE_LIMIT = 4;
const shared = sharedServerAndBrowser({ serverArgs: ["--workers", "1", "--free-limit", `${FREE_LIMIT}/1h`, "--auth-limit", "100/1m"] });
const url = () => shared.server.url;

/** Status lines Chromium logs for a refused fetch: the page shows those refusals itself, as messages. */
const REFUSAL_LOG = /Failed to load resource: the server responded with a status of (400|401|429)/;

async function openDashboard(options: { viewport?: { width: number; height: number }; from?: BrowserContext } = {}) {
  const guarded = await guardedContext(shared.browser, url(), options);
  // The same signed-in browser at another size: its cookies (the HttpOnly session) carried over.
  if (options.from) await guarded.context.addCookies(await options.from.cookies());
  const page = await guarded.context.newPage();
  await page.goto(`${url()}/`);
  await page.locator("#account-loading").waitFor({ state: "hidden" });
  return { ...guarded, page };
}

async function signUp(page: Page, name: string, email: string, password: string) {
  await page.locator("#sign-up-name").fill(name);
  await page.locator("#sign-up-email").fill(email);
  await page.locator("#sign-up-password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.locator("#user-email", { hasText: email }).waitFor();
}

/** The page's session cookie, for the test's own requests on its behalf. */
async function pageCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies(url())).find((c) => c.name === "foodapi.session_token");
  if (!cookie) throw new Error("the page has no session cookie");
  return `${cookie.name}=${cookie.value}`;
}

/** Another device: a sign-in from outside the browser, its cookie kept by the test. */
async function signInElsewhere(email: string, password: string): Promise<string> {
  const response = await fetch(`${url()}/api/auth/sign-in/email`, jsonPost({ email, password }));
  expect(response.status).toBe(200);
  return sessionCookie(response);
}

const sessionIsLive = async (cookie: string) => (await fetch(`${url()}/api/auth/list-sessions`, { headers: { cookie } })).status === 200;
const keyRow = (page: Page, name: string) => page.locator("#key-rows tr[data-key-id]", { hasText: name });
const activeElement = (page: Page) =>
  page.evaluate<{ id: string; text: string; label: string | null }>(
    "({ id: document.activeElement.id, text: document.activeElement.textContent.trim(), label: document.activeElement.getAttribute('aria-label') })",
  );

/** The focus lands where it should once the page has handled the key or click (dialogs close a task later). */
async function expectFocus(page: Page, expected: { id?: string | RegExp; label?: string | RegExp }) {
  const fits = (value: string | null, want: string | RegExp | undefined) =>
    want === undefined || (value !== null && (typeof want === "string" ? value === want : want.test(value)));
  let last: Awaited<ReturnType<typeof activeElement>> | undefined;
  await pollUntil(
    async () => {
      last = await activeElement(page);
      return fits(last.id, expected.id) && fits(last.label, expected.label) ? last : undefined;
    },
    { ms: 3000, intervalMs: 50, what: () => `the focus on ${String(expected.id ?? expected.label)}, not on ${JSON.stringify(last)}` },
  );
}

interface HourUsage {
  hour: string;
  allowed: number;
  refused: number;
}

/** Presses Tab until the focused element's accessible label or text is `name` (bounded: the page has far fewer stops). */
async function tabTo(page: Page, name: string | RegExp) {
  const matches = (text: string | null) => text !== null && (typeof name === "string" ? text === name : name.test(text));
  for (let presses = 0; presses < 80; presses++) {
    const focused = await activeElement(page);
    if (matches(focused.label) || matches(focused.text)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${name}`);
}

describe.skipIf(NO_CHROMIUM)("account self-service and usage in the dashboard", () => {
  test("name, sessions, password with sign-out elsewhere, key rename, Last used, usage chart (desktop and phone), deletion", async () => {
    const email = "sam@example.com";
    const { page, context, outside, problems } = await openDashboard({ viewport: { width: 1280, height: 900 } });
    await signUp(page, "Sam", email, "first password");

    // The name.
    const settings = page.locator("#account-settings");
    expect(await settings.getByLabel("Your name").inputValue()).toBe("Sam");
    await settings.getByLabel("Your name").fill("Samantha");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.locator("#name-status", { hasText: "Your name is saved." }).waitFor();
    const session = await (await fetch(`${url()}/api/auth/get-session`, { headers: { cookie: await pageCookie(context) } })).json();
    expect((session as { user: { name: string } }).user.name).toBe("Samantha");

    // A second device appears in the list (after a reload) and is signed out from here.
    const phone = await signInElsewhere(email, "first password");
    await page.reload();
    const sessions = page.locator("#session-list li");
    await sessions.nth(1).waitFor();
    expect(await sessions.count()).toBe(2);
    const current = page.locator("#session-list li", { hasText: "this device" });
    // Debian's chromium, headless (another Chromium named by FOODAPI_CHROMIUM may not say "Headless").
    expect(await current.locator("strong").textContent()).toMatch(/^(Headless )?Chrome on Linux$/);
    expect(await current.getByRole("button").count()).toBe(0);
    const other = page.locator("#session-list li", { hasNotText: "this device" });
    expect(await other.locator("strong").textContent()).toBe("Bun");
    expect(await other.textContent()).toContain("from 127.0.0.1");
    await page.screenshot({ path: artifactPath("self-service-sessions.png"), fullPage: true });
    await other.getByRole("button", { name: /^Sign out Bun, signed in / }).click();
    await page.locator("#sessions-status", { hasText: "Signed out Bun." }).waitFor();
    await page.locator("#session-list li").nth(1).waitFor({ state: "detached" });
    await expectFocus(page, { id: "sessions-title" });
    expect(await sessionIsLive(phone)).toBe(false);

    // The password: a wrong current one is said as the API says it; then the change, signing out the others.
    const laptop = await signInElsewhere(email, "first password");
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password").fill("second password");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.locator("#password-error", { hasText: "Could not change your password: The password is not correct." }).waitFor();
    await expectFocus(page, { id: "current-password" });
    await page.getByLabel("Current password").fill("first password");
    await page.getByRole("checkbox", { name: "Sign out my other devices" }).check();
    await page.getByRole("button", { name: "Change password" }).click();
    await page.locator("#password-status", { hasText: "Password changed. Your other devices are signed out." }).waitFor();
    expect(await page.getByLabel("Current password").inputValue()).toBe("");
    expect(await sessionIsLive(laptop)).toBe(false);
    expect(await sessionIsLive(await pageCookie(context))).toBe(true);
    expect((await fetch(`${url()}/api/auth/sign-in/email`, jsonPost({ email, password: "first password" }))).status).toBe(401);
    await page.reload();
    await page.locator("#user-email", { hasText: email }).waitFor();
    await page.locator("#session-list li").first().waitFor();
    expect(await page.locator("#session-list li").count()).toBe(1);

    // A key, used by the playground: its "Last used" goes from "never" to a time without a reload.
    await page.getByLabel("Key name").fill("laptop");
    await page.getByRole("button", { name: "Issue key" }).click();
    await page.locator("#new-key").waitFor();
    const plaintext = await page.locator("#new-key-value").inputValue();
    const lastUsed = keyRow(page, "laptop").locator("td.last-used");
    expect(await lastUsed.textContent()).toBe("never");
    await page.getByRole("button", { name: "Use in the playground" }).click();
    await page.getByLabel("Food name contains").fill("cheddar");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#results").waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    await page.locator("#key-rows td.last-used", { hasNotText: "never" }).waitFor();
    const listed = (await (await fetch(`${url()}/v1/keys`, { headers: { cookie: await pageCookie(context) } })).json()) as { items: { id: string; lastUsedAt: string }[] };
    const keyId = listed.items[0]!.id;
    // In the browser's language, the month named, to the minute.
    const inBrowser = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
    expect(await lastUsed.textContent()).toBe(await page.evaluate<string, string>(inBrowser, listed.items[0]!.lastUsedAt));

    // Usage to draw: the free tier admits 4 an hour; one was the playground's search, so 3 more pass and 3 are refused.
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${url()}/v1/nutrients`, { headers: { "x-api-key": plaintext } })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    const cookie = await pageCookie(context);
    const usage = await pollUntil(
      async () => {
        const { items } = (await (await fetch(`${url()}/v1/keys/${keyId}/usage`, { headers: { cookie } })).json()) as { items: HourUsage[] };
        const sum = (field: "allowed" | "refused") => items.reduce((n, item) => n + item[field], 0);
        return sum("allowed") === FREE_LIMIT && sum("refused") === 3 ? items : undefined;
      },
      { ms: 10_000, intervalMs: 200, what: "the key's usage written by the server (every 2 s)" },
    );

    // Rename, from the key's row: the list and the API agree.
    await keyRow(page, "laptop").getByRole("button", { name: "Rename key laptop" }).click();
    // A name of spaces passes the field's `required` but not the API: its message is shown, the form stays.
    await page.getByLabel("New name for key laptop").fill("   ");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const renameRefusal = (await page.locator(`#rename-${keyId}-error`, { hasText: "Could not rename “laptop”: " }).textContent())!;
    const apiRefusal = await fetch(`${url()}/v1/keys/${keyId}`, { method: "PATCH", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ name: "   " }) });
    expect(apiRefusal.status).toBe(400);
    expect(renameRefusal).toBe(`Could not rename “laptop”: ${((await apiRefusal.json()) as { message: string }).message}`);
    await expectFocus(page, { id: `rename-${keyId}` });
    await page.getByLabel("New name for key laptop").fill("build server");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.locator("#key-list-status", { hasText: "Key “laptop” renamed to “build server”." }).waitFor();
    await expectFocus(page, { label: "Rename key build server" });
    const renamed = (await (await fetch(`${url()}/v1/keys`, { headers: { cookie } })).json()) as { items: { name: string }[] };
    expect(renamed.items.map((key) => key.name)).toEqual(["build server"]);

    // The chart: one bar per hour and series with requests, exactly what the usage route answers.
    await keyRow(page, "build server").getByRole("button", { name: "Usage of key build server", exact: true }).click();
    const chart = page.locator(`#usage-${keyId} svg.usage-chart`);
    await chart.waitFor();
    await expectChartMatches(page, keyId, usage);
    expect(await page.locator(`#usage-${keyId} .usage-summary`).textContent()).toBe("Last 7 days: 4 requests allowed, 3 refused (429, over the limit).");
    expect(await chart.getAttribute("role")).toBe("img");
    const labelledBy = (await chart.getAttribute("aria-labelledby"))!.split(" ");
    expect(await page.locator(`[id="${labelledBy[0]}"]`).textContent()).toBe("Requests per hour with “build server”, last 7 days");
    expect(await page.locator(`[id="${labelledBy[1]}"]`).textContent()).toContain("4 allowed and 3 refused");
    await page.locator("#keys").screenshot({ path: artifactPath("self-service-usage.png") });
    // The text alternative: every hour with requests as a table row, and the totals.
    await page.getByText(`Hours with requests (${usage.length})`).click();
    const table = page.locator(`#usage-${keyId} table`);
    expect(await table.locator("tbody tr").count()).toBe(usage.length);
    expect(await table.locator("tfoot tr").locator("th, td").allTextContents()).toEqual(["Total", "4", "3"]);
    const chartBox = (await chart.boundingBox())!;
    expect(chartBox.width).toBeGreaterThan(900);
    await page.screenshot({ path: artifactPath("self-service-desktop.png"), fullPage: true });

    // On a phone (375 px): nothing wider than the screen, the chart drawn at the width it gets.
    const small = await openDashboard({ viewport: { width: 375, height: 740 }, from: context });
    await small.page.locator("#user-email", { hasText: email }).waitFor();
    await keyRow(small.page, "build server").getByRole("button", { name: "Usage of key build server", exact: true }).click();
    const phoneChart = small.page.locator(`#usage-${keyId} svg.usage-chart`);
    await phoneChart.waitFor();
    await expectChartMatches(small.page, keyId, usage);
    const phoneBox = (await phoneChart.boundingBox())!;
    expect(phoneBox.x).toBeGreaterThanOrEqual(0);
    expect(phoneBox.x + phoneBox.width).toBeLessThanOrEqual(375);
    expect(await small.page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375);
    // Its labels are drawn at 11 px whatever the width (the chart is not a scaled-down picture).
    const tickHeight = await small.page.locator(`#usage-${keyId} svg text.tick`).first().evaluate((text) => (text as unknown as { getBBox(): { height: number } }).getBBox().height);
    expect(tickHeight).toBeGreaterThan(10);
    await small.page.locator("#keys").screenshot({ path: artifactPath("self-service-phone-keys.png") });
    await small.page.screenshot({ path: artifactPath("self-service-phone.png"), fullPage: true });
    expect(small.outside).toEqual([]);
    expect(small.problems).toEqual([]);
    await small.context.close();

    // Two more refusals, and "Refresh usage" draws what the route answers now.
    for (let i = 0; i < 2; i++) expect((await fetch(`${url()}/v1/nutrients`, { headers: { "x-api-key": plaintext } })).status).toBe(429);
    const later = await pollUntil(
      async () => {
        const { items } = (await (await fetch(`${url()}/v1/keys/${keyId}/usage`, { headers: { cookie } })).json()) as { items: HourUsage[] };
        return items.reduce((n, item) => n + item.refused, 0) === 5 ? items : undefined;
      },
      { ms: 10_000, intervalMs: 200, what: "the two later refusals in the key's usage" },
    );
    await page.getByRole("button", { name: "Refresh the usage of key build server" }).click();
    await page.locator(`#usage-${keyId} .usage-summary`, { hasText: "Last 7 days: 4 requests allowed, 5 refused" }).waitFor();
    await expectChartMatches(page, keyId, later);
    await expectFocus(page, { label: "Refresh the usage of key build server" });

    // Deletion: the password and the typed e-mail, each refusal said in the dialog; then signed out.
    await page.getByRole("button", { name: "Delete account…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByLabel("Your password").fill("second password");
    await dialog.getByLabel(/To confirm, type your e-mail address/).fill("someone@example.com");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await dialog.locator("#delete-error", { hasText: `Type your e-mail address, ${email}, to confirm.` }).waitFor();
    await dialog.getByLabel(/To confirm, type your e-mail address/).fill(email);
    await dialog.getByLabel("Your password").fill("first password");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await dialog.locator("#delete-error", { hasText: "Could not delete the account: The password is not correct." }).waitFor();
    await expectFocus(page, { id: "delete-password" });
    await page.screenshot({ path: artifactPath("self-service-delete-dialog.png") });
    await dialog.getByLabel("Your password").fill("second password");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await page.locator("#signed-out").waitFor();
    await page.locator("#account-status", { hasText: "Your account is deleted, with its sessions, keys and usage. You are signed out." }).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await page.locator("#keys").isHidden()).toBe(true);
    expect(await page.locator("#account-settings").isHidden()).toBe(true);
    await expectFocus(page, { id: "sign-in-email" });
    expect((await fetch(`${url()}/v1/nutrients`, { headers: { "x-api-key": plaintext } })).status).toBe(401);
    expect((await fetch(`${url()}/api/auth/sign-in/email`, jsonPost({ email, password: "second password" }))).status).toBe(401);
    expect(await context.cookies(url())).toEqual([]);

    expect(outside).toEqual([]);
    expect(problems.filter((problem) => !REFUSAL_LOG.test(problem))).toEqual([]);
    await context.close();
  });

  test("keyboard only: rename (Escape cancels), usage, revoke another session, delete the account (Escape closes)", async () => {
    const email = "kim@example.com";
    const { page, context, outside, problems } = await openDashboard();
    await signUp(page, "Kim", email, "kim's password");
    const elsewhere = await signInElsewhere(email, "kim's password");
    await page.reload();
    await page.locator("#session-list li").nth(1).waitFor();

    // Signed in, the focus starts in "Key name": type, Enter, and the new key's Copy button has the focus.
    await page.locator("#key-name").focus();
    await page.keyboard.type("ci");
    await page.keyboard.press("Enter");
    await page.locator("#new-key").waitFor();
    await expectFocus(page, { id: "copy-key" });

    await tabTo(page, "Rename key ci");
    await page.keyboard.press("Enter");
    await expectFocus(page, { id: /^rename-key_/ });
    await page.keyboard.type("abandoned");
    await page.keyboard.press("Escape");
    await expectFocus(page, { label: "Rename key ci" });
    expect(await keyRow(page, "ci").locator("td").first().textContent()).toBe("ci");
    await page.keyboard.press("Enter");
    // The field starts with the name selected: typing replaces it.
    await page.keyboard.type("deploy bot");
    await page.keyboard.press("Enter");
    await page.locator("#key-list-status", { hasText: "Key “ci” renamed to “deploy bot”." }).waitFor();
    await expectFocus(page, { label: "Rename key deploy bot" });

    await page.keyboard.press("Tab");
    await expectFocus(page, { label: "Usage of key deploy bot" });
    await page.keyboard.press("Enter");
    await page.locator(".usage-summary", { hasText: "No requests with “deploy bot” in the last 7 days." }).waitFor();
    expect(await page.getByRole("button", { name: "Usage of key deploy bot", exact: true }).getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator("svg.usage-chart rect").count()).toBe(0);

    await tabTo(page, /^Sign out Bun, signed in /);
    await page.keyboard.press("Enter");
    await page.locator("#sessions-status", { hasText: "Signed out Bun." }).waitFor();
    await expectFocus(page, { id: "sessions-title" });
    expect(await sessionIsLive(elsewhere)).toBe(false);

    await tabTo(page, "Delete account…");
    await page.keyboard.press("Enter");
    await expectFocus(page, { id: "delete-password" });
    await page.keyboard.type("kim's password");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await expectFocus(page, { id: "delete-account" });
    expect(await sessionIsLive(await pageCookie(context))).toBe(true);

    await page.keyboard.press("Enter");
    // Opened again, nothing typed before is left in it.
    expect(await page.locator("#delete-password").inputValue()).toBe("");
    await page.keyboard.type("kim's password");
    await page.keyboard.press("Tab");
    await expectFocus(page, { id: "delete-confirm" });
    await page.keyboard.type(email);
    await page.keyboard.press("Enter");
    await page.locator("#signed-out").waitFor();
    await expectFocus(page, { id: "sign-in-email" });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("a session ended elsewhere: the page says so and shows the sign-in form", async () => {
    const email = "lee@example.com";
    const { page, context, problems } = await openDashboard();
    await signUp(page, "Lee", email, "lee's password");
    // Another device changes the password and signs out every other session, this browser's included.
    const other = await signInElsewhere(email, "lee's password");
    const changed = await fetch(
      `${url()}/api/auth/change-password`,
      jsonPost({ currentPassword: "lee's password", newPassword: "lee's new password", revokeOtherSessions: true }, { cookie: other }),
    );
    expect(changed.status).toBe(200);
    await page.getByLabel("Key name").fill("late");
    await page.getByRole("button", { name: "Issue key" }).click();
    await page.locator("#account-error", { hasText: "Your session has ended (signed out from another device, or expired). Sign in again." }).waitFor();
    await page.locator("#signed-out").waitFor();
    expect(await page.locator("#account-settings").isHidden()).toBe(true);
    expect(problems.filter((problem) => !REFUSAL_LOG.test(problem))).toEqual([]);
    await context.close();
  });
});

/** Every `rect` of the chart against the usage route's hours: same hours, same counts, nothing more. */
async function expectChartMatches(page: Page, keyId: string, usage: HourUsage[]) {
  const bars = await page
    .locator(`#usage-${keyId} svg.usage-chart rect`)
    .evaluateAll((rects) => rects.map((rect) => [rect.getAttribute("data-hour"), rect.getAttribute("data-series"), Number(rect.getAttribute("data-count"))]));
  const expected = usage.flatMap((item) => [
    ...(item.allowed > 0 ? [[item.hour, "allowed", item.allowed]] : []),
    ...(item.refused > 0 ? [[item.hour, "refused", item.refused]] : []),
  ]);
  expect(bars).toEqual(expected);
  // Drawn, not just present: each bar has a height and lies inside the chart.
  const sizes = await page.locator(`#usage-${keyId} svg.usage-chart rect`).evaluateAll((rects) => rects.map((rect) => (rect as unknown as { getBBox(): { height: number } }).getBBox().height));
  for (const height of sizes) expect(height).toBeGreaterThan(0);
}
