import { errorDescription } from "../platform/http/error-catalog";
import { errorResponse, SECURITY_HEADERS } from "../platform/http/errors";
import type { MaybePromise } from "../platform/maybe-promise";
import { constantTimeEqual, sha256Hex } from "../platform/security/tokens";
import { PROMETHEUS_CONTENT_TYPE, renderMetrics, type StateGauges } from "./exposition";
import type { CollectSnapshots } from "./fleet";

export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics` for a scraper holding the token: the whole server's metrics. Any other request for the
 * path (no token, another token, another scheme, another method) is the plain 404 of an unknown route, so
 * that the route does not announce itself. The presented token is compared by its SHA-256 in constant
 * time: neither its content nor its length leaks through timing.
 */
export function metricsEndpoint(options: { token: string; collect: CollectSnapshots; stateGauges: () => MaybePromise<StateGauges> }) {
  const expected = sha256Hex(options.token);
  const notFound = () => errorResponse(errorDescription("NOT_FOUND", []));
  return async (request: Request): Promise<Response> => {
    const authorization = request.headers.get("authorization");
    const presented = authorization === null ? undefined : /^Bearer ([^\s]{1,1024})$/.exec(authorization)?.[1];
    if ((request.method !== "GET" && request.method !== "HEAD") || presented === undefined || !constantTimeEqual(sha256Hex(presented), expected)) {
      return notFound();
    }
    const [snapshots, state] = await Promise.all([options.collect(), options.stateGauges()]);
    const headers = { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store", ...SECURITY_HEADERS };
    return new Response(request.method === "HEAD" ? null : renderMetrics(snapshots, state), { headers });
  };
}
