import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFoodApi, type FoodApi } from "../../src/app";
import { findOrCreatePasswordlessAccount } from "../../src/accounts/service";
import { createAccountStore } from "../../src/accounts/store";
import type { Clock } from "../../src/clock";
import { type Config, loadConfig } from "../../src/config/config";
import { openStateDb } from "../../src/db/state-db";
import { issueKey } from "../../src/keys/service";
import { createKeyStore } from "../../src/keys/store";
import { SERVICE_VERSION } from "../../src/meta/version";
import { buildOpenApiDocument } from "../../src/docs/openapi";
import { contractOf } from "./contract";
import { CATALOG_PATH } from "./paths";

export const BASE = "http://127.0.0.1:3000";

/**
 * The real app over the built catalog and a fresh state database in a temporary directory, driven with
 * `app.handle(new Request(...))`: the same code path as the server, without a port.
 */
export function createTestApp(options: { env?: Record<string, string>; clock?: Clock } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "foodapi-test-"));
  const config = loadConfig(new Map(), { FOODAPI_DATA_DIR: dataDir, ...options.env });
  const catalog = new Database(CATALOG_PATH, { readonly: true, strict: true });
  const state = openStateDb(dataDir);
  const clock = options.clock ?? (() => Date.now());
  const errors: unknown[] = [];
  const app = createFoodApi({ config, catalog, state, clock, logError: (e) => errors.push(e) });
  configs.set(app, config);

  return {
    app,
    state,
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
    issueKey(email = "dev@example.com", name = "test key") {
      const accounts = createAccountStore(state);
      const user = findOrCreatePasswordlessAccount(accounts, email, clock());
      const result = issueKey(createKeyStore(state), clock, user.id, name);
      if (!result.ok) throw new Error(result.reason);
      return result.key;
    },
    close() {
      state.sqlite.close();
      catalog.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = ReturnType<typeof createTestApp>;

const configs = new WeakMap<FoodApi, Config>();
const documents = new WeakMap<FoodApi, Record<string, any>>();
/** The OpenAPI document `app` serves at /openapi/json: the same builder, routes and options. */
export function documentOf(app: FoodApi): Record<string, any> {
  let document = documents.get(app);
  if (!document) {
    const config = configs.get(app)!;
    document = buildOpenApiDocument(app.elysia, { serverUrl: config.baseUrl.origin, version: SERVICE_VERSION, freeLimit: config.freeLimit });
    documents.set(app, document);
  }
  return document;
}
