import type { Database } from "bun:sqlite";
import { authRoutes } from "./accounts/routes";
import { createSessionStore } from "./accounts/session-store";
import { createAccountStore } from "./accounts/store";
import type { Clock } from "./clock";
import type { Config } from "./config/config";
import { catalogRoutes } from "./catalog/routes";
import { createCatalogStore } from "./catalog/store";
import type { StateDb } from "./db/state-db";
import { createAppShell } from "./http/app";
import type { CredentialVerifiers } from "./http/credential-guard";
import { keyRoutes } from "./keys/routes";
import { verifyKey } from "./keys/service";
import { createKeyStore } from "./keys/store";
import { createLimiter } from "./limits/limiter";
import { createLimitStore } from "./limits/store";
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
  const { config, clock } = deps;
  const catalog = createCatalogStore(deps.catalog);
  const keys = createKeyStore(deps.state);
  const accounts = createAccountStore(deps.state);
  const sessions = createSessionStore(deps.state);
  const limiter = createLimiter(createLimitStore(deps.state), clock);
  const allowedOrigins = new Set([config.baseUrl.origin, ...config.trustedOrigins]);
  const secureCookies = config.baseUrl.protocol === "https:";

  const verifiers: CredentialVerifiers = {
    apiKey(presented) {
      const check = verifyKey(keys, clock, presented);
      return check.ok
        ? { ok: true, principal: { kind: "key", id: check.key.id, userId: check.key.userId, tier: "free" } }
        : { ok: false, reason: check.reason };
    },
    // Trial tokens arrive with the trial capability; until then every bearer credential is refused.
    bearer: () => ({ ok: false, reason: "TRIAL_TOKENS_DISABLED" }),
  };

  return createAppShell({ logError: deps.logError })
    .use(metaRoutes({ config, catalog, pingState: () => deps.state.sqlite.query("SELECT 1").get() }))
    .use(authRoutes({ accounts, sessions, clock, secureCookies, limiter, config, allowedOrigins }))
    .use(keyRoutes({ keys, sessions, clock, secureCookies, allowedOrigins }))
    .use(catalogRoutes(catalog, verifiers));
}

export type FoodApi = ReturnType<typeof createFoodApi>;
