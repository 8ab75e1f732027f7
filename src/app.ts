import type { Database } from "bun:sqlite";
import type { Clock } from "./clock";
import type { Config } from "./config/config";
import { catalogRoutes } from "./catalog/routes";
import { createCatalogStore } from "./catalog/store";
import type { StateDb } from "./db/state-db";
import { createAppShell } from "./http/app";
import type { CredentialVerifiers } from "./http/credential-guard";
import { verifyKey } from "./keys/service";
import { createKeyStore } from "./keys/store";
import { metaRoutes } from "./meta/routes";

export interface AppDeps {
  config: Config;
  catalog: Database;
  state: StateDb;
  clock: Clock;
  logError: (error: unknown) => void;
}

/** The composition root of the HTTP API: stores over the two databases, capabilities mounted on the shell. */
export function createFoodApi(deps: AppDeps) {
  const catalog = createCatalogStore(deps.catalog);
  const keys = createKeyStore(deps.state);

  const verifiers: CredentialVerifiers = {
    apiKey(presented) {
      const check = verifyKey(keys, deps.clock, presented);
      return check.ok
        ? { ok: true, principal: { kind: "key", id: check.key.id, userId: check.key.userId, tier: "free" } }
        : { ok: false, reason: check.reason };
    },
    // Trial tokens arrive with the trial capability; until then every bearer credential is refused.
    bearer: () => ({ ok: false, reason: "TRIAL_TOKENS_DISABLED" }),
  };

  return createAppShell({ logError: deps.logError })
    .use(metaRoutes({ config: deps.config, catalog, pingState: () => deps.state.sqlite.query("SELECT 1").get() }))
    .use(catalogRoutes(catalog, verifiers));
}

export type FoodApi = ReturnType<typeof createFoodApi>;
