import { afterAll, beforeAll, expect } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { startServer, type RunningServer } from "./binary";
import { ROOT } from "./paths";

/** Debian's chromium (installed by .ci/run); playwright never downloads a browser here. */
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const ARTIFACTS_DIR = join(ROOT, "test/artifacts");

// Without these, Chromium reaches out to Google on its own (updates, sync, field trials).
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-gpu",
  "--disable-quic",
  "--disable-sync",
];

/** Headless Chromium with a fresh profile (playwright makes a new user-data-dir per launch). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: the browser tests need it. Install it with ` +
        "'apt-get install -y --no-install-recommends chromium' (.ci/run does this).",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The compiled binary on a free loopback port named explicitly: with `--port 0` its base URL, the one
 * origin the CSRF check accepts, would say port 0 and the browser's own POSTs would be refused.
 */
export async function startServerForBrowser(): Promise<RunningServer> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return startServer({ args: ["--port", String(port)] });
}

/** One server and one browser for all the tests of a file, started before them and stopped after. */
export function sharedServerAndBrowser(): { server: RunningServer; browser: Browser } {
  const shared = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [shared.server, shared.browser] = await Promise.all([startServerForBrowser(), launchChromium()]);
  });
  afterAll(async () => {
    await shared.browser?.close();
    expect(await shared.server.stop()).toBe(0);
  });
  return shared;
}

export interface GuardedContext {
  context: BrowserContext;
  /** Every request to anywhere but the server under test: aborted, and listed here. */
  outside: string[];
  /** Console errors, uncaught exceptions and Content-Security-Policy violations of every page. */
  problems: string[];
}

/** A browser context without a network: only the server under test answers. */
export async function guardedContext(
  browser: Browser,
  serverUrl: string,
  options: { clipboard?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<GuardedContext> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1100, height: 900 },
    permissions: options.clipboard ? ["clipboard-read", "clipboard-write"] : [],
  });
  const allowed = new URL(serverUrl).host;
  const outside: string[] = [];
  const problems: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).host === allowed) return route.continue();
    outside.push(url);
    return route.abort("internetdisconnected");
  });
  context.on("page", (page) => watch(page, problems));
  return { context, outside, problems };
}

function watch(page: Page, problems: string[]) {
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`exception: ${error.message}`));
}

/** Screenshots are test artefacts (gitignored), for a person to look at after a run. */
export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR, name);
}
