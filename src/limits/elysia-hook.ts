import { Elysia } from "elysia";
import type { Route } from "../platform/http/route";

/**
 * The per-IP limits (`ipLimits(...).count`, limits/http.ts) for the routes Elysia answers: counted at
 * transform, after the session check and before body validation, so malformed attempts count too.
 * `routeOf` finds the route Elysia matched in the table. Apart from limits/http.ts so that a start, which
 * counts the direct routes' limits before it composes Elysia's, does not load Elysia.
 */
export function ipLimitHook(count: (request: Request, route: Route) => Promise<void>, routeOf: (method: string, template: string) => Route | undefined) {
  // Declared async: Elysia awaits a hook only when it can tell it is one.
  return new Elysia().onTransform({ as: "global" }, async ({ request, route }) => {
    const declared = routeOf(request.method, route);
    if (declared?.notes?.ipLimit !== undefined) await count(request, declared);
  });
}
