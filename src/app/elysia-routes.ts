import type { AnyElysia } from "elysia";
import { authRoutes } from "../accounts/routes";
import type { AuthRouteDeps } from "../accounts/route-deps";
import type { CatalogStore } from "../catalog/store";
import { dashboardRoutes } from "../dashboard/routes";
import { docsRoutes } from "../docs/routes";
import type { ActiveKeys } from "../keys/active-keys";
import { keyRoutes } from "../keys/routes";
import type { KeyStore } from "../keys/store";
import { ipLimitHook } from "../limits/elysia-hook";
import { descriptionRoute } from "../meta/description-route";
import type { ErrorMapper } from "../platform/http/error-mapping";
import { allowedOriginsFor } from "../platform/http/origin-check";
import type { Route } from "../platform/http/route";
import { trialRoutes } from "../trial/routes";
import type { TrialDeps } from "../trial/service";
import type { UsageStore } from "../usage/store";
import { keyUsage, USAGE_HOURS } from "../usage/service";
import { ERRORS } from "./error-catalog";
import { createAppShell } from "./http/shell";

/** What the routes Elysia answers need from the composition root (src/app/app.ts), which made it for the direct routes too. */
export interface ElysiaRouteDeps extends Omit<AuthRouteDeps, "allowedOrigins" | "secureCookies"> {
  catalog: CatalogStore;
  keys: KeyStore;
  activeKeys: ActiveKeys;
  usage: UsageStore;
  trial: TrialDeps;
  toApiError: ErrorMapper;
  /** The per-IP limits' count (limits/http.ts), and the table's route for what Elysia matched. */
  countIpLimit: (request: Request, route: Route) => Promise<void>;
  routeOf: (method: string, template: string) => Route | undefined;
  /** Every route of the complete table, for the OpenAPI document. */
  routes: () => readonly Route[];
}

/**
 * The routes Elysia answers (accounts, keys, trial, dashboard, docs, `/v1/meta`) on the app shell. A module
 * of its own, imported when they are composed: a start answers its first requests on the direct routes
 * before it loads Elysia or any of these (design §18).
 */
export function composeElysiaRoutes(deps: ElysiaRouteDeps): AnyElysia {
  const { config, clock, limiter, sessions } = deps;
  const allowedOrigins = allowedOriginsFor(config.baseUrl, config.trustedOrigins);
  const secureCookies = config.baseUrl.protocol === "https:";
  return createAppShell({ toApiError: deps.toApiError })
    .use(ipLimitHook(deps.countIpLimit, deps.routeOf))
    .use(descriptionRoute({ config, catalog: deps.catalog }))
    .use(authRoutes({ accounts: deps.accounts, sessions, accountKeys: deps.accountKeys, clock, secureCookies, limiter, config, allowedOrigins }))
    .use(
      keyRoutes({
        keys: deps.keys,
        activeKeys: deps.activeKeys,
        usage: { hourly: (keyId, now) => keyUsage(deps.usage, keyId, now), hours: USAGE_HOURS },
        sessions,
        clock,
        secureCookies,
        allowedOrigins,
        limiter,
        issueLimit: config.keyIssueLimit,
      }),
    )
    .use(trialRoutes({ ...deps.trial, config }))
    .use(dashboardRoutes(deps.catalog))
    .use(docsRoutes(config, ERRORS, deps.routes));
}
