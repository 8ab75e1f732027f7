import type { AnyElysia } from "elysia";
import { AUTH_LIMIT } from "../accounts/route-deps";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config/config";
import { analysisRoutes } from "../analysis/routes";
import { catalogRoutes } from "../catalog/routes";
import type { CatalogStore } from "../catalog/store";
import { createHousekeeping } from "../platform/storage/housekeeping";
import type { StateStores } from "./state/state-stores";
import { createStorageHealth } from "../platform/storage/storage-health";
import { type Admission, type CredentialVerifiers, createCredentialGuard } from "../platform/http/credential-guard";
import { createDispatcher, directMethod, type Handle } from "../platform/http/direct-routes";
import { createErrorMapper } from "../platform/http/error-mapping";
import { labelRoutes } from "../label/routes";
import { createActiveKeys, KEYS_REFUSED } from "../keys/active-keys";
import { keyIssueBucket, keyUseBucket } from "../keys/service";
import type { DeletedAccountKeys } from "../accounts/account-keys";
import { keyCredential } from "../keys/credential";
import { createLimiter } from "../limits/limiter";
import { ipLimits } from "../limits/http";
import { healthRoutes } from "../meta/routes";
import type { MaybePromise } from "../platform/maybe-promise";
import { createUsageRecorder } from "../usage/recorder";
import { usageSweeper } from "../usage/service";
import { trialCredential } from "../trial/credential";
import { TRIAL_LIMIT, type TrialDeps, trialSecrets } from "../trial/service";
import { requestFacts } from "../platform/http/request-context";
import { withResponseHeaders } from "./http/response-headers";
import { createRouteTable, type DirectRouteSpec, type HiddenRouteSpec, type RouteTable } from "../platform/http/route-table";
import { METRICS_PATH, metricsEndpoint } from "../metrics/endpoint";
import type { CollectSnapshots } from "../metrics/fleet";
import { createMetricsRegistry, type MetricsSnapshot, UNMATCHED_ROUTE } from "../metrics/registry";

export interface AppDeps {
  config: Config;
  catalog: CatalogStore;
  /** Accounts, sessions, keys, counters, trial state: SQLite in the data directory or another backend. */
  state: StateStores;
  clock: Clock;
  logError: (error: unknown) => void;
  /**
   * Registers work to do when the server stops, once it has drained and before the state closes (giving
   * back unused rate-limit leases, writing the last usage counts); each task is awaited.
   */
  onShutdown?: (task: () => MaybePromise<void>) => void;
  /** Run the housekeeping job on its timer (a serving process); tests call `housekeeping.run()` themselves. */
  housekeeping?: boolean;
  /** This process's worker index (0 for the first or only one), for its metrics. */
  worker?: number;
  /**
   * How a scrape gathers every process's metrics (metrics/fleet.ts), given this process's own; by default
   * this process alone.
   */
  collectMetrics?: (local: () => MetricsSnapshot) => CollectSnapshots;
  /**
   * More direct routes, declared as the capabilities declare theirs and put in the one route table with
   * them: served on the fast path, counted, limited and documented alike (test/app/route-table.test.ts).
   */
  routes?: readonly DirectRouteSpec[];
  /**
   * Compose the Elysia routes (accounts, keys, trial, dashboard, docs: ~8 ms of a ~50 ms later start) after
   * the start rather than before it: the direct routes answer at once, and a request for any other route
   * waits until they are composed (`completeRoutes`). Tests compose them at once.
   */
  composeElysiaLater?: boolean;
}

/** The composition root of the HTTP API: capabilities over the catalog and the state stores, mounted on the shell. */
export async function createFoodApi(deps: AppDeps) {
  const { config, clock, catalog } = deps;
  const { accounts, sessions, keys, limits, trial: trialStore } = deps.state;
  const activeKeys = createActiveKeys({ store: keys, revocations: deps.state.keyRevocations, clock });
  // What an account's ban or deletion does to its keys (accounts/account-keys.ts): accounts do not import keys.
  const accountKeys: DeletedAccountKeys = {
    dropDeleted: (keyHashes) => activeKeys.dropDeleted(keyHashes),
    forgetAccount: (userId, now) => activeKeys.forgetAccount(userId, now),
    issueBucket: keyIssueBucket,
    useBucket: keyUseBucket,
    refusedWhen: KEYS_REFUSED,
  };
  const limiter = createLimiter(limits, clock);
  deps.onShutdown?.(() => void limiter.releaseLeases({ all: true }));
  const usage = createUsageRecorder({ store: deps.state.usage, clock, logError: deps.logError });
  deps.onShutdown?.(() => {
    usage.stop();
    return usage.flush();
  });
  const housekeeping = createHousekeeping({
    // Called, not read, here: a store a start has not used yet is made at its first sweep (sqlite-state.ts).
    sweepers: {
      sessions: (now, batch) => sessions.sweepExpired(now, batch),
      trial: (now, batch) => trialStore.sweepExpired(now, batch),
      rateCounters: (now, batch) => limits.sweep(now, batch),
      keys: (now, batch) => keys.sweep(now, batch),
      usage: usageSweeper(deps.state.usage),
    },
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
    secrets: trialSecrets(trialStore, config),
    turnstile: config.turnstileSecretKey
      ? { secretKey: config.turnstileSecretKey, verifyUrl: config.turnstileVerifyUrl, timeoutMs: config.turnstileTimeoutMs }
      : undefined,
  };

  // The data routes' two credentials: each verifies its own kind and counts its own quota.
  const keyCredentials = keyCredential({ keys: activeKeys, clock, limiter, freeLimit: config.freeLimit, usage });
  const trialCredentials = trialCredential(trial);
  const verifiers: CredentialVerifiers = { apiKey: keyCredentials.verify, bearer: trialCredentials.verify };
  const admit: Admission = (principal, cost) => (principal.kind === "key" ? keyCredentials.admit(principal, cost) : trialCredentials.admit(principal, cost));

  // A storage fault anywhere (Elysia route or direct route) is a 503 and marks the storage unhealthy.
  const storage = createStorageHealth(deps.state.probeWrite, deps.logError);
  const toApiError = createErrorMapper({ logError: deps.logError, onStorageFault: storage.recordFault });

  // The per-IP limits a route may name in its declaration (`ipLimit`), each with its setting.
  const perIpLimits = ipLimits({ limiter, clientIpHeader: config.clientIpHeader, limits: { [AUTH_LIMIT]: config.authLimit, [TRIAL_LIMIT]: config.trialIpLimit } });
  const dataGuard = createCredentialGuard(verifiers, admit);
  const catalogApi = catalogRoutes(catalog, dataGuard);
  const analysisApi = analysisRoutes(catalog, dataGuard);
  const health = healthRoutes({ catalog, pingState: deps.state.ping, stateWritable: storage.writable });
  // The Elysia routes, declared by their capabilities on Elysia; it routes the requests the dispatcher
  // leaves to it. The table (below) reads them from it: `routing.table` is the complete one before any
  // request reaches Elysia. Their module, and Elysia with it, is loaded when they are composed.
  const composeElysia = async (): Promise<AnyElysia> =>
    (await import("./elysia-routes")).composeElysiaRoutes({
      config,
      catalog,
      accounts,
      sessions,
      accountKeys,
      keys,
      activeKeys,
      usage: deps.state.usage,
      trial,
      clock,
      limiter,
      toApiError,
      countIpLimit: perIpLimits.count,
      routeOf: (method, template) => routing.table.route(method, template),
      routes: () => routing.table.routes,
    });
  // Metrics: counted per process by `observe` (called by the server for every answer), served at
  // /metrics only when a token is configured, for the whole fleet of workers.
  const metrics = createMetricsRegistry(deps.worker ?? 0);
  const collect = deps.collectMetrics?.(metrics.snapshot) ?? (() => Promise.resolve([metrics.snapshot()]));
  const scrape = config.metricsToken
    ? metricsEndpoint({
        token: config.metricsToken,
        collect,
        stateGauges: async () => ({ accounts: await accounts.count(), activeKeys: await keys.countActive() }),
      })
    : undefined;
  // /metrics is one more path the dispatcher matches, so no request pays a check of its own for it.
  const scrapeRoute: HiddenRouteSpec[] = scrape ? [{ path: METRICS_PATH, handle: scrape, hidden: true }] : [];
  const direct = [...health, ...catalogApi, ...analysisApi, ...labelRoutes(catalog, dataGuard), ...(deps.routes ?? []), ...scrapeRoute];

  /**
   * The one route table (design §1), every route, direct and Elysia's, and what is derived from it: the
   * fast path, the templates of metrics, CORS, OPTIONS and limits, and the OpenAPI document. Without
   * `elysia` (a start that composes it later), the direct routes alone: `rest` answers every other request
   * once it has composed Elysia, and the complete table replaces this one.
   */
  const route = (elysia: AnyElysia | undefined): Routing => {
    const table = createRouteTable({ direct, elysia });
    perIpLimits.checkNamed(table.routes);
    const dispatcher = createDispatcher({ table, fallback: elysia?.handle ?? rest, toApiError, ipLimit: perIpLimits.count });
    const handle = withResponseHeaders(dispatcher, { baseUrl: config.baseUrl, corsOrigins: config.corsOrigins, routes: table });
    if (elysia) return { table, handle, elysia };
    // A request a direct route answers is answered; any other (a path of Elysia's, another method, an
    // OPTIONS, whose Allow lists every method of the path) goes to `rest` before this layer's headers,
    // which the complete table's handler adds itself.
    return { table, handle: (request) => (answersDirectly(table, request) ? handle(request) : rest(request)), elysia };
  };
  let complete: Promise<void> | undefined = deps.composeElysiaLater ? undefined : Promise.resolve();
  /** Composes Elysia (once) and serves with the complete table from then on. */
  const completeRoutes = (): Promise<void> =>
    (complete ??= composeElysia().then((elysia) => {
      routing = route(elysia);
    }));
  // A request the direct routes alone cannot answer waits for the complete table, and is matched again by it.
  const rest: Handle = (request) =>
    completeRoutes().then(() => {
      requestFacts(request).match = undefined;
      return routing.handle(request);
    });
  let routing: Routing = route(deps.composeElysiaLater ? undefined : await composeElysia());
  const observe = (request: Request, status: number, ms: number): string => {
    const facts = requestFacts(request);
    const template = routing.table.matchOf(request, facts).template ?? UNMATCHED_ROUTE;
    // Nothing is counted that no one can scrape: without a token, metrics cost nothing per request.
    if (scrape) {
      metrics.record({ route: template, method: request.method, status, seconds: ms / 1000, cause: facts.authFailure ?? facts.errorCode });
    }
    return template;
  };

  return {
    /** Every request goes here: /metrics, the hot data routes directly, everything else through Elysia; then the common headers. */
    handle: (request: Request) => routing.handle(request),
    /** Counts an answered request in this process's metrics; the route template it was counted under. */
    observe,
    metrics,
    /**
     * With `composeElysiaLater`, composes the Elysia routes now rather than at the first request that needs
     * them (`serve` calls it once the requests that waited for the start are answered).
     */
    completeRoutes,
    /** Every route `handle` answers, the route table's: each documented unless hidden (test/docs/openapi.test.ts checks). */
    get routes() {
      return routing.table.routes;
    },
    get elysia(): AnyElysia {
      if (routing.elysia === undefined) throw new Error("the Elysia routes are not composed yet (completeRoutes)");
      return routing.elysia;
    },
    housekeeping,
    /** Requests per key, counted in memory: `flush` writes them now (tests; shutdown does it itself). */
    usage,
  };
}

/** The routes served now: the table, the handler derived from it, and the Elysia app it reads (once composed). */
interface Routing {
  readonly table: RouteTable;
  readonly handle: Handle;
  readonly elysia: AnyElysia | undefined;
}

/** What the dispatcher answers with a direct route's handler (direct-routes.ts), and not through its fallback. */
function answersDirectly(table: RouteTable, request: Request): boolean {
  return directMethod(request.method) && table.matchOf(request).route?.handle !== undefined;
}

export type FoodApi = Awaited<ReturnType<typeof createFoodApi>>;
