import type { Database } from "bun:sqlite";
import { authRoutes } from "./accounts/routes";
import { createSessionStore } from "./accounts/session-store";
import { createAccountStore } from "./accounts/store";
import type { Clock } from "./clock";
import type { Config } from "./config/config";
import { catalogRoutes } from "./catalog/routes";
import { createCatalogStore } from "./catalog/store";
import { dashboardRoutes } from "./dashboard/routes";
import { createHousekeeping } from "./db/housekeeping";
import type { StateDb } from "./db/state-db";
import { createStorageHealth } from "./db/storage-health";
import { docsRoutes } from "./docs/routes";
import { createAppShell } from "./http/shell";
import { type Admission, type CredentialVerifiers, createCredentialGuard } from "./http/credential-guard";
import { createDispatcher } from "./http/direct-routes";
import { allowedOriginsFor } from "./http/origin-check";
import { createErrorMapper } from "./http/error-mapping";
import { keyRoutes } from "./keys/routes";
import { keyCredential } from "./keys/credential";
import { createKeyStore } from "./keys/store";
import { createLimiter } from "./limits/limiter";
import { createLimitStore } from "./limits/store";
import { metaRoutes } from "./meta/routes";
import { trialRoutes } from "./trial/routes";
import { trialCredential } from "./trial/credential";
import { loadTrialSecrets, type TrialDeps } from "./trial/service";
import { createTrialStore } from "./trial/store";

export interface AppDeps {
  config: Config;
  catalog: Database;
  state: StateDb;
  clock: Clock;
  logError: (error: unknown) => void;
  /** Registers work to do when the server stops (giving back unused rate-limit leases). */
  onShutdown?: (task: () => void) => void;
  /** Run the housekeeping job on its timer (a serving process); tests call `housekeeping.run()` themselves. */
  housekeeping?: boolean;
}

/** The composition root of the HTTP API: stores over the two databases, capabilities mounted on the shell. */
export function createFoodApi(deps: AppDeps) {
  const { config, clock } = deps;
  const catalog = createCatalogStore(deps.catalog);
  const keys = createKeyStore(deps.state);
  const accounts = createAccountStore(deps.state);
  const sessions = createSessionStore(deps.state);
  const limitStore = createLimitStore(deps.state);
  const limiter = createLimiter(limitStore, clock);
  deps.onShutdown?.(() => limiter.releaseLeases({ all: true }));
  const trialStore = createTrialStore(deps.state);
  const housekeeping = createHousekeeping({
    sweepers: { sessions: sessions.sweepExpired, trial: trialStore.sweepExpired, rateCounters: limitStore.sweep, keys: keys.sweep },
    releaseLeases: () => limiter.releaseLeases(),
    clock,
    logError: deps.logError,
  });
  if (deps.housekeeping) {
    housekeeping.start();
    deps.onShutdown?.(() => housekeeping.stop());
  }
  const trial: TrialDeps = {
    store: trialStore,
    clock,
    secrets: loadTrialSecrets(trialStore, config),
    turnstile: config.turnstileSecretKey ? { secretKey: config.turnstileSecretKey, verifyUrl: config.turnstileVerifyUrl } : undefined,
  };
  const allowedOrigins = allowedOriginsFor(config.baseUrl, config.trustedOrigins);
  const secureCookies = config.baseUrl.protocol === "https:";

  // The data routes' two credentials: each verifies its own kind and counts its own quota.
  const keyCredentials = keyCredential({ keys, clock, limiter, freeLimit: config.freeLimit });
  const trialCredentials = trialCredential(trial);
  const verifiers: CredentialVerifiers = { apiKey: keyCredentials.verify, bearer: trialCredentials.verify };
  const admit: Admission = (principal) => (principal.kind === "key" ? keyCredentials.admit(principal) : trialCredentials.admit(principal));

  // A storage fault anywhere (Elysia route or direct route) is a 503 and marks the storage unhealthy.
  const storage = createStorageHealth(deps.state.sqlite, deps.logError);
  const toApiError = createErrorMapper({ logError: deps.logError, onStorageFault: storage.recordFault });

  const catalogApi = catalogRoutes(catalog, createCredentialGuard(verifiers, admit));
  const metaApi = metaRoutes({ config, catalog, pingState: () => deps.state.sqlite.query("SELECT 1").get(), stateWritable: storage.writable });
  const elysia = createAppShell({ toApiError })
    .use(metaApi.documented)
    .use(authRoutes({ accounts, sessions, clock, secureCookies, limiter, config, allowedOrigins }))
    .use(keyRoutes({ keys, sessions, clock, secureCookies, allowedOrigins, limiter, issueLimit: config.keyIssueLimit }))
    .use(trialRoutes({ ...trial, config, limiter }))
    .use(catalogApi.documented)
    .use(dashboardRoutes(catalog))
    .use(docsRoutes(config));
  const dispatcher = createDispatcher([...catalogApi.direct, ...metaApi.direct], elysia.handle, toApiError);
  return {
    /** Every request goes here: the hot data routes directly, everything else through Elysia. */
    handle: dispatcher.handle,
    /** The routes `handle` answers before Elysia: documented like Elysia's (test/openapi.test.ts checks). */
    direct: dispatcher.routes,
    elysia,
    housekeeping,
  };
}

export type FoodApi = ReturnType<typeof createFoodApi>;
