import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFoodApi } from "../../src/app";
import { createAccountStore } from "../../src/accounts/store";
import type { Clock } from "../../src/clock";
import { loadConfig } from "../../src/config/config";
import { openStateDb } from "../../src/db/state-db";
import { issueKey } from "../../src/keys/service";
import { createKeyStore } from "../../src/keys/store";
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

  return {
    app,
    state,
    dataDir,
    errors,
    async request(path: string, init?: RequestInit): Promise<Response> {
      return app.handle(new Request(`${BASE}${path}`, init));
    },
    /** Creates an account (if needed) and a key the way `foodapi keys create` does. */
    issueKey(email = "dev@example.com", name = "test key") {
      const accounts = createAccountStore(state);
      const user = accounts.findByEmail(email) ?? accounts.insert({ email, name: "dev", passwordHash: null, now: clock() })!;
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
