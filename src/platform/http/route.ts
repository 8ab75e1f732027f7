import type { OperationNotes } from "./route-notes";

/**
 * What the route table (route-table.ts) holds of each route, and what matching a request against it finds.
 * Kept apart from the table so that a request's facts (request-context.ts) can carry its match.
 */

/** What a direct handler needs of the URL once its route is matched. */
export interface RequestTarget {
  /** The query string without its `?` ("" when there is none). */
  readonly search: string;
  /** The parameter's segment, percent-decoded, for a route declared with one. */
  readonly param?: string;
}

/** A promise only where a store answers over the network: the embedded one answers in the same turn. */
export type DirectHandler = (request: Request, target: RequestTarget) => Response | Promise<Response>;

export interface Route {
  /** `GET` (which answers `HEAD` too), `POST`, `PATCH`, `DELETE`. */
  readonly method: string;
  /**
   * `/v1/foods/:foodNumber`, in Elysia's syntax, without a trailing slash: what metrics count the route
   * under, what its per-IP limit buckets by, what CORS and `Allow` are decided for.
   */
  readonly template: string;
  /** Answered before Elysia by this handler (a direct route); absent: Elysia answers (an Elysia route). */
  readonly handle?: DirectHandler;
  /** The credential, errors and examples it is documented with, and its per-IP limit; absent: undocumented. */
  readonly notes?: OperationNotes;
  /** Out of the API's document: pages and their files, the document itself, `/metrics`. */
  readonly hidden: boolean;
  /** What the OpenAPI generator reads besides method and path, by Elysia's names: schemas and `detail`. */
  readonly hooks: Readonly<Record<string, unknown>>;
}

/** A request's route, as the table matched it once (route-table.ts `matchOf`). */
export interface RouteMatch {
  /** The route declared for the request's method (`GET`'s for `HEAD`), if any. */
  readonly route: Route | undefined;
  /** The route's template, else the template the path matches under another method; undefined: no route. */
  readonly template: string | undefined;
  /** The percent-decoded parameter of a route declared with one (its first, for an Elysia route with more). */
  readonly param: string | undefined;
  /** The methods declared for `template`, `HEAD` and `OPTIONS` included, for `Allow` and preflights. */
  readonly allow: readonly string[];
}
