import { type AnyElysia, type DocumentDecoration, t, type TSchema } from "elysia";
import { type DirectHandler, type DirectRoute, splitUrl } from "./direct-routes";
import { checkedByService } from "./schema";

/**
 * The vocabulary of what route schemas cannot say: which credential an operation takes, which errors it
 * answers with, examples. Each route declares its own notes beside its handler (`operation()` and
 * `DirectRouteSpec` below); the generated document (src/docs/openapi.ts) is decorated with them, and a route
 * without notes is documented without credentials or errors, which test/docs/openapi.test.ts refuses.
 * Every number in a message or description comes from the constant the server uses.
 */

/** `apiKeyOrTrial`: the data routes' credential guard. `optionalSession`: works without one too. */
type Credential = "none" | "apiKeyOrTrial" | "session" | "optionalSession";

/** A success response the route does not declare as a schema (204s, untyped handlers). */
interface ExtraResponse {
  description: string;
  schema?: Record<string, unknown>;
  example?: unknown;
}

export interface OperationNotes {
  credential: Credential;
  /** The names of its errors, each declared in a table of the catalogue (src/platform/http/error-catalog.ts). */
  errors: readonly string[];
  /** Examples for the declared success response, by status. */
  examples?: Readonly<Record<string, unknown>>;
  requestExample?: unknown;
  responses?: Readonly<Record<string, ExtraResponse>>;
  /** The response sets or clears the session cookie (always, or only when the call changed the caller's session). */
  setsCookie?: boolean | "whenChanged";
}

/**
 * Where a route is declared once: its path, handler and schemas, and its documentation, so that what is
 * served and what the OpenAPI document says cannot drift apart. An Elysia route gets its documentation from
 * `operation()` as its `detail`; a direct route (answered before Elysia, src/platform/http/direct-routes.ts) is a
 * `DirectRouteSpec`, from which both the dispatcher's route and its Elysia copy are made.
 */

/** An operation's documentation: what Elysia's `detail` carries, and what schemas cannot say. */
export interface OperationDocs extends OperationNotes {
  summary: string;
  description?: string;
  tags: readonly string[];
}

/** What the document builder reads of a route, beside its schemas. */
export interface RouteNotes extends OperationNotes {
  /** Also answered for HEAD, as the GET without its body (every direct route is). */
  head?: boolean;
}

// A symbol, so that Elysia and the generator carry it along (spread, merged) without showing it anywhere.
const NOTES = Symbol("foodapi.route-notes");

type NotedDetail = DocumentDecoration & { [NOTES]?: RouteNotes };

/** The `detail` of a documented Elysia route: summary, description and tags, with the notes attached. */
export function operation(docs: OperationDocs): DocumentDecoration {
  return withNotes(docs, {});
}

function withNotes({ summary, description, tags, ...notes }: OperationDocs, extra: Partial<RouteNotes>): DocumentDecoration {
  const detail: NotedDetail = { summary, tags: [...tags], ...(description === undefined ? {} : { description }) };
  detail[NOTES] = { ...notes, ...extra };
  return detail;
}

/** The notes `operation()` attached to a route's `detail`, if any. */
export function notesOf(detail: unknown): RouteNotes | undefined {
  return (detail as NotedDetail | undefined)?.[NOTES];
}

/** `detail` as the OpenAPI generator should see it: without the notes. */
export function withoutNotes(detail: DocumentDecoration | undefined): DocumentDecoration | undefined {
  if (notesOf(detail) === undefined) return detail;
  const { [NOTES]: _notes, ...rest } = detail as NotedDetail;
  return rest;
}

/**
 * A GET route answered by the dispatcher (and its HEAD, as the GET without the body), or a POST with a
 * body, and mounted on Elysia with its schemas too, for the document, which is generated from Elysia's
 * routes. That copy calls the same handler, so the Elysia app alone (without the dispatcher in front)
 * answers alike, but for a POST's malformed body: Elysia's parser refuses it before any handler runs.
 */
export interface DirectRouteSpec extends OperationDocs {
  /** GET (and HEAD) unless said. */
  method?: "POST";
  /**
   * The full path in Elysia's syntax (`/v1/foods/:foodNumber`): at most one parameter, as the last
   * segment, which is what the dispatcher matches (a POST takes none).
   */
  path: string;
  handle: DirectHandler;
  query?: TSchema;
  /** A POST's body, as the document shows it: the handler reads and checks it itself (`guardedBody`). */
  body?: TSchema;
  response?: Readonly<Record<number, TSchema>>;
}

/** The dispatcher's routes for `specs`. */
export function directRoutes(specs: readonly DirectRouteSpec[]): DirectRoute[] {
  return specs.map(({ method, path, handle }) => {
    const { prefix, param } = template(path);
    const route: DirectRoute = param === undefined ? { path: prefix, handle } : { path: prefix, param, handle };
    return method === undefined ? route : { ...route, method };
  });
}

/** Mounts `specs` on `app` as routes calling the same handlers, documented with their notes. */
export function mountRoutes<App extends AnyElysia>(app: App, specs: readonly DirectRouteSpec[]): App {
  for (const { method, path, handle, query, body, response, ...docs } of specs) {
    if (method === "POST") {
      const hooks = { body: checkedByService(body ?? t.Unknown()), ...(response ? { response } : {}), detail: withNotes(docs, {}) };
      app.post(path, ({ request, body: parsed }) => handle(request, { search: splitUrl(request.url).search, body: parsed }), hooks);
      continue;
    }
    const { param } = template(path);
    const hooks = {
      ...(param === undefined ? {} : { params: t.Object({ [param]: t.String() }) }),
      ...(query ? { query } : {}),
      ...(response ? { response } : {}),
      detail: withNotes(docs, { head: true }),
    };
    app.get(
      path,
      ({ request, params }) =>
        handle(request, { search: splitUrl(request.url).search, param: param === undefined ? undefined : params[param] }),
      hooks,
    );
  }
  return app;
}

function template(path: string): { prefix: string; param?: string } {
  const match = /^(.*)\/:(\w+)$/.exec(path);
  const prefix = match ? match[1]! : path;
  if (!prefix.startsWith("/") || /[:*]/.test(prefix)) {
    throw new Error(`direct route ${path}: the dispatcher matches a full path with at most one parameter, its last segment`);
  }
  return { prefix, param: match?.[2] };
}
