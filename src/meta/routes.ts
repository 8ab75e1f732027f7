import type { CatalogStore } from "../catalog/store";
import { JSON_CONTENT_TYPE, SECURITY_HEADERS } from "../platform/http/errors";
import { isPromise, type MaybePromise } from "../platform/maybe-promise";
import type { DirectRouteSpec } from "../platform/http/route-table";

/**
 * Whether this service can answer: `/healthz`, a direct route (answered before Elysia): load balancers ask
 * it constantly, and a start is measured to its first 200, which would otherwise include composing the
 * Elysia pipeline for it (~8 ms). What the service is and serves: meta/description-route.ts.
 */
export function healthRoutes(deps: { catalog: CatalogStore; pingState: () => MaybePromise<void>; stateWritable: () => MaybePromise<boolean> }): DirectRouteSpec[] {
  const { catalog } = deps;
  const answer = (status: "ok" | "unavailable") =>
    new Response(JSON.stringify({ status }), { status: status === "ok" ? 200 : 503, headers: { "content-type": JSON_CONTENT_TYPE, ...SECURITY_HEADERS } });
  const unavailable = () => answer("unavailable");
  // 503 while writes fail (a full disk, a read-only file system), not only when nothing answers.
  const answerFor = (writable: boolean) => answer(writable ? "ok" : "unavailable");
  const writable = () => {
    const ok = deps.stateWritable();
    return isPromise(ok) ? ok.then(answerFor) : answerFor(ok);
  };
  const healthz = (): MaybePromise<Response> => {
    try {
      catalog.ping();
      const pinged = deps.pingState();
      const answered = isPromise(pinged) ? pinged.then(writable) : writable();
      return isPromise(answered) ? answered.catch(unavailable) : answered;
    } catch {
      return unavailable();
    }
  };
  return [
    {
      path: "/healthz",
      summary: "Health check: both databases answer a query",
      tags: ["Public"],
      credential: "none",
      errors: [],
      responses: {
        "200": { description: "Both databases answer a query", schema: HEALTH_SCHEMA, example: { status: "ok" } },
        "503": { description: "A database does not answer", schema: HEALTH_SCHEMA, example: { status: "unavailable" } },
      },
      handle: healthz,
    },
  ];
}

const HEALTH_SCHEMA = { type: "object", required: ["status"], properties: { status: { enum: ["ok", "unavailable"], type: "string" } } };
