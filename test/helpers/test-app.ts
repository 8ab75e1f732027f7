import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AppDeps, createFoodApi, type FoodApi } from "../../src/app/app";
import { findOrCreatePasswordlessAccount } from "../../src/accounts/service";
import type { Clock } from "../../src/platform/clock";
import { type Config, loadConfig } from "../../src/platform/config/config";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import type { StateStores } from "../../src/app/state/state-stores";
import { issueKey } from "../../src/keys/service";
import { SERVICE_VERSION } from "../../src/platform/version";
import { buildOpenApiDocument } from "../../src/docs/openapi";
import { ERRORS } from "../../src/app/error-catalog";
import { contractOf } from "./contract";
import { CATALOG_PATH, ROOT } from "./paths";
import { openTestState } from "./test-backend";

export const BASE = "http://127.0.0.1:3000";

/**
 * The real app over the built catalog and a fresh state, driven with `app.handle(new Request(...))`: the
 * same code path as the server, without a port. The state is on the backend FOODAPI_TEST_BACKEND names
 * (helpers/test-backend.ts): a state database in a temporary data directory (SQLite, the default), or a
 * database of its own in the run's PostgreSQL with a key prefix of its own in the run's Redis. `stores`
 * may wrap the backend's stores (test/app/async-stores.test.ts makes every one answer a turn later); `state`
 * looks at the state and breaks it, the same way on either backend. `routes`: more direct routes, put in
 * the app's route table beside the capabilities' own (test/app/route-table.test.ts). `composeElysiaLater`:
 * as `serve` builds it, Elysia's routes composed when first needed (test/app/later-routes.test.ts).
 */
export async function createTestApp(
  options: { env?: Record<string, string>; clock?: Clock; stores?: (backend: StateStores) => StateStores; routes?: AppDeps["routes"]; composeElysiaLater?: boolean } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), "foodapi-test-"));
  const config = loadConfig(new Map(), { FOODAPI_DATA_DIR: dataDir, ...options.env });
  // Opened as `serve` opens it (src/cli/serve.ts), from the built catalog.
  const catalog = await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache"));
  const state = await openTestState(dataDir);
  const stores = options.stores?.(state.stores) ?? state.stores;
  const clock = options.clock ?? (() => Date.now());
  const errors: unknown[] = [];
  const app = await createFoodApi({ config, catalog, state: stores, clock, logError: (e) => errors.push(e), routes: options.routes, composeElysiaLater: options.composeElysiaLater });
  configs.set(app, config);

  let closed: Promise<void> | undefined;
  return {
    app,
    /** `sqlite` or `postgres+redis`. */
    backend: state.backend,
    state,
    stores,
    dataDir,
    errors,
    /** The app's answer, held to the app's own OpenAPI document (helpers/contract.ts) before it is returned. */
    async request(path: string, init?: RequestInit): Promise<Response> {
      const request = new Request(`${BASE}${path}`, init);
      const response = await app.handle(request);
      await contractOf(documentOf(app)).check({ method: request.method, url: request.url }, response);
      return response;
    },
    /** The same without the contract check: for fuzzing and load loops that check (or count) themselves. */
    async rawRequest(path: string, init?: RequestInit): Promise<Response> {
      return app.handle(new Request(`${BASE}${path}`, init));
    },
    /** Creates an account (if needed) and a key the way `foodapi keys create` does. */
    async issueKey(email = "dev@example.com", name = "test key") {
      const user = await findOrCreatePasswordlessAccount(stores.accounts, email, clock());
      const result = await issueKey(stores.keys, clock, user.id, name);
      if (!result.ok) throw new Error(result.reason);
      return result.key;
    },
    /** Closes the state (the backend's own stores: a wrapper's are the test's) and removes it; to be awaited. */
    close(): Promise<void> {
      return (closed ??= (async () => {
        // Counts not yet written are dropped with the state; the timer must not write to a closed one.
        app.usage.stop();
        catalog.close();
        await state.close();
        rmSync(dataDir, { recursive: true, force: true });
      })());
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

const configs = new WeakMap<FoodApi, Config>();
const documents = new WeakMap<FoodApi, Record<string, any>>();
/** The OpenAPI document `app` serves at /openapi/json: the same builder, routes and options. */
export function documentOf(app: FoodApi): Record<string, any> {
  let document = documents.get(app);
  if (!document) {
    const config = configs.get(app)!;
    document = buildOpenApiDocument(app.routes, { serverUrl: config.baseUrl.origin, version: SERVICE_VERSION, freeLimit: config.freeLimit, errors: ERRORS });
    documents.set(app, document);
  }
  return document;
}

/**
 * A data-route test file's app and key: one app made before the file's tests, with a key issued the way
 * `foodapi keys create` issues one, and closed after them. `app` and `key` are there from the first test on.
 */
export function testAppWithKey(options?: Parameters<typeof createTestApp>[0]) {
  let app: TestApp | undefined;
  let key: string | undefined;
  beforeAll(async () => {
    app = await createTestApp(options);
    key = (await app.issueKey()).key;
  });
  afterAll(() => app?.close());
  return {
    get app(): TestApp {
      return app!;
    },
    get key(): string {
      return key!;
    },
  };
}
