import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFoodApi } from "../../src/app/app";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import type { CatalogStore } from "../../src/catalog/store";
import { loadConfig } from "../../src/platform/config/config";
import { BASE } from "../helpers/test-app";
import { CATALOG_PATH, ROOT } from "../helpers/paths";
import { openTestState, type TestState } from "../helpers/test-backend";

/**
 * A server answers while its app is half made (src/app/app.ts `startFoodApi`, src/cli/serve.ts): the direct
 * routes without a parameter at once, every other request once Elysia's routes are composed. Whichever
 * way a request goes, its answer is the one the whole app gives: compared here, headers and body, with
 * CORS for a list of origins on (its `Vary: Origin` is appended, so an answer decorated twice shows).
 */

const ORIGIN = "https://app.example.com";
const ENV = { FOODAPI_CORS_ORIGINS: `${ORIGIN},https://other.example.com` };

let dataDir: string;
let catalog: CatalogStore;
let state: TestState;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "foodapi-staged-"));
  catalog = await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache"));
  state = await openTestState(dataDir);
});

afterAll(async () => {
  catalog.close();
  await state.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function stagedApp() {
  const config = loadConfig(new Map(), { FOODAPI_DATA_DIR: dataDir, ...ENV });
  return startFoodApi({ config, catalog, state: state.stores, clock: () => Date.now(), logError: () => {} });
}

const request = (path: string, init: RequestInit = {}) => new Request(`${BASE}${path}`, { ...init, headers: { origin: ORIGIN, ...init.headers } });

/** Status, headers (sorted) and body: everything a client can tell apart. */
async function seen(response: Response | Promise<Response>) {
  const settled = await response;
  return { status: settled.status, headers: [...settled.headers.entries()].sort(), body: await settled.text() };
}

describe("a half-made app", () => {
  test("answers /healthz at once, as the whole app does", async () => {
    const staged = await stagedApp();
    const early = staged.handle(request("/healthz"));
    // Answered in the same turn: nothing waits for Elysia's routes.
    expect(early).toBeInstanceOf(Response);
    const whole = staged.complete();
    expect(await seen(early)).toEqual(await seen(whole.handle(request("/healthz"))));
    expect((early as Response).status).toBe(200);
  });

  test("keeps the other requests until it is complete, then answers them as the whole app does", async () => {
    const staged = await stagedApp();
    const asked: [string, RequestInit][] = [
      ["/v1/meta", {}],
      ["/v1/meta", { method: "OPTIONS", headers: { "access-control-request-method": "GET" } }],
      ["/v1/foods", { method: "OPTIONS", headers: { "access-control-request-method": "GET" } }],
      ["/v1/foods/01009", {}],
      ["/api/auth/get-session", {}],
      ["/no/such/route", {}],
    ];
    let settled = 0;
    const early = asked.map(([path, init]) => Promise.resolve(staged.handle(request(path, init))).finally(() => settled++));
    await Bun.sleep(20);
    expect(settled).toBe(0);
    const whole = staged.complete();
    for (const [i, [path, init]] of asked.entries()) {
      const answer = await seen(early[i]!);
      expect({ path, method: init.method ?? "GET", ...answer }).toEqual({ path, method: init.method ?? "GET", ...(await seen(whole.handle(request(path, init)))) });
    }
    // CORS was decided by the whole table: once, for the route's own template.
    const meta = await early[0]!;
    expect(meta.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(meta.headers.get("vary")).toBe("Origin");
  });
});
