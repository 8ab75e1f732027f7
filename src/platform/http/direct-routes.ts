import type { ErrorMapper } from "./error-mapping";
import { declaresTooLargeBody } from "./body";
import { errorDescription } from "./error-catalog";
import { errorResponse } from "./errors";
import type { DirectHandler, RequestTarget, Route } from "./route";
import type { RouteTable } from "./route-table";
import { requestFacts, requestUrl } from "./request-context";

/**
 * The fast path: the direct routes of the route table (route-table.ts), answered before Elysia. Elysia's
 * generic request pipeline (context, hooks, header merging) cost more than a cached answer itself, so a
 * `GET` or `HEAD` of a direct route goes straight to its plain `(request, target) => Response` handler. A
 * direct route with a body (a `POST`) is answered here too, because its body must not be read before its
 * credential is counted (Elysia parses a body before any handler runs). Every other request goes on to
 * Elysia, which routes it itself.
 */

export type Handle = (request: Request) => Response | Promise<Response>;

/**
 * Counts a request against its route's per-IP limit (`notes.ipLimit`); settles, or throws the 429, when
 * counted. Filled by the composition root from the limits capability.
 */
export type IpLimitCheck = (request: Request, route: Route) => Promise<void> | void;

const PAYLOAD_TOO_LARGE = errorDescription("PAYLOAD_TOO_LARGE", []);

/** The methods a direct route answers itself (HEAD as its GET); a request of any other goes to the fallback. */
export const directMethod = (method: string): boolean => method === "GET" || method === "HEAD" || method === "POST";

export function createDispatcher(options: { table: RouteTable; fallback: Handle; toApiError: ErrorMapper; ipLimit: IpLimitCheck }): Handle {
  const { table, fallback, toApiError, ipLimit } = options;
  const failed = (error: unknown) => errorResponse(toApiError(error));
  /** A refusal of the per-IP limit is counted under its code, as Elysia's routes count theirs (app/http/shell.ts). */
  const refused = (request: Request, error: unknown) => {
    const apiError = toApiError(error);
    requestFacts(request).errorCode = apiError.code;
    return errorResponse(apiError);
  };
  const answer = (request: Request, handle: DirectHandler, target: RequestTarget, head: boolean): Response | Promise<Response> => {
    let response: Response | Promise<Response>;
    try {
      response = handle(request, target);
    } catch (error) {
      response = failed(error);
    }
    if (response instanceof Promise) response = response.catch(failed);
    if (!head) return response;
    return response instanceof Promise ? response.then(headersOnly) : headersOnly(response);
  };

  return (request) => {
    const method = request.method;
    if (!directMethod(method)) return fallback(request);
    const head = method === "HEAD";
    const facts = requestFacts(request);
    const match = table.matchOf(request, facts);
    const route = match.route;
    if (route?.handle === undefined) return fallback(request);
    // A POST reads (and size-checks) its own body, after its credential: no check here comes first.
    if (method !== "POST" && declaresTooLargeBody(request)) return errorResponse(PAYLOAD_TOO_LARGE);
    const target: RequestTarget = { search: requestUrl(request, facts).search, param: match.param };
    if (route.notes?.ipLimit === undefined) return answer(request, route.handle, target, head);
    let counted: Promise<void> | void;
    try {
      counted = ipLimit(request, route);
    } catch (error) {
      return refused(request, error);
    }
    const { handle } = route;
    return counted instanceof Promise
      ? counted.then(
          () => answer(request, handle, target, head),
          (error: unknown) => refused(request, error),
        )
      : answer(request, handle, target, head);
  };
}

/** HEAD is answered here too, as GET without the body: the same guard, quota and status. */
const headersOnly = (response: Response) => new Response(null, { status: response.status, headers: response.headers });
