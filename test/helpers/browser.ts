import { afterAll, beforeAll, expect } from "bun:test";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { startServer, type RunningServer } from "./binary";
import { ROOT } from "./paths";

/** Debian's chromium (installed by .ci/run), or FOODAPI_CHROMIUM; playwright never downloads a browser here. */
const CHROMIUM_PATH = process.env.FOODAPI_CHROMIUM || "/usr/bin/chromium";
const ARTIFACTS_DIR = join(ROOT, "test/artifacts");

/**
 * Without Chromium the browser tests are skipped (`describe.skipIf(NO_CHROMIUM)`), and nothing is started
 * for them: no server, no browser, no temporary directory. Said once, on stderr, so a run shows why.
 */
export const NO_CHROMIUM = !existsSync(CHROMIUM_PATH);
if (NO_CHROMIUM) {
  console.error(
    `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (Debian: apt-get install -y --no-install-recommends chromium, ` +
      "as .ci/run does; or set FOODAPI_CHROMIUM to another Chromium)",
  );
}

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
async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * The compiled binary on a free loopback port named explicitly: with `--port 0` its base URL, the one
 * origin the CSRF check accepts, would say port 0 and the browser's own POSTs would be refused.
 */
async function startServerForBrowser(args: string[] = []): Promise<RunningServer> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return startServer({ args: ["--port", String(port), ...args] });
}

/**
 * One server and one browser for all the tests of a file, started before them and stopped after, with
 * the server's temporary directory. Without Chromium no hook is registered, so nothing starts (the
 * file's tests are `describe.skipIf(NO_CHROMIUM)`). Whichever of the two did start is stopped even when
 * the other failed: a browser that cannot launch must not leave a `foodapi serve` running. `serverArgs`
 * go to `serve` after the port (a small limit for the file's tests, say).
 */
export function sharedServerAndBrowser(options: { serverArgs?: string[] } = {}): { server: RunningServer; browser: Browser } {
  const shared = {} as { server: RunningServer; browser: Browser };
  if (NO_CHROMIUM) return shared;
  beforeAll(async () => {
    const [server, browser] = await Promise.allSettled([startServerForBrowser(options.serverArgs), launchChromium()]);
    if (server.status === "fulfilled") shared.server = server.value;
    if (browser.status === "fulfilled") shared.browser = browser.value;
    if (server.status === "rejected") throw server.reason;
    if (browser.status === "rejected") throw browser.reason;
  });
  afterAll(async () => {
    await shared.browser?.close();
    if (shared.server) {
      const code = await shared.server.stop();
      rmSync(shared.server.cwd, { recursive: true, force: true });
      expect(code).toBe(0);
    }
  });
  return shared;
}

/** One browser for all the tests of a file that need no server (pages they make themselves), closed after them. */
export function sharedBrowser(): { browser: Browser } {
  const shared = {} as { browser: Browser };
  if (NO_CHROMIUM) return shared;
  beforeAll(async () => {
    shared.browser = await launchChromium();
  });
  afterAll(async () => {
    await shared.browser?.close();
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
  options: { clipboard?: boolean; viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<GuardedContext> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1100, height: 900 },
    permissions: options.clipboard ? ["clipboard-read", "clipboard-write"] : [],
    // The browser's language (navigator.language, Intl's default); Chromium's own, en-US, without it.
    ...(options.locale ? { locale: options.locale } : {}),
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
