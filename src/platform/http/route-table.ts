import type { TSchema } from "@sinclair/typebox";
// The builders as a namespace (see catalog/model.ts).
import * as Type from "@sinclair/typebox";
import type { AnyElysia } from "elysia";
import type { DirectHandler, Route, RouteMatch } from "./route";
import { type OperationDocs, notesOf, operation } from "./route-notes";
import { type RequestFacts, requestFacts, requestUrl } from "./request-context";
import { decodeSegment, routePath } from "./request-url";

/**
 * The one route table (design §1): every route the app serves, declared once by its capability, put
 * together by the composition root (src/app/app.ts). Derived from it: the fast path's matcher (the
 * dispatcher, direct-routes.ts), the template a request is counted, limited and given CORS and `Allow`
 * under, and the OpenAPI document (src/docs/openapi.ts). A request is matched against it once
 * (`matchOf`), and everyone reads that match.
 *
 * Two kinds of route are declared. A direct route (`DirectRouteSpec`) is answered before Elysia by a plain
 * handler: Elysia's request pipeline costs more than a cached answer, and a POST's body must not be parsed
 * before its credential is counted. An Elysia route is declared on Elysia as usual (schemas, cookies,
 * guards), documented with `operation()`; the table reads it from the app, and Elysia still routes the
 * requests the dispatcher hands it (that is its job; the table only labels them).
 */

/** A direct route: GET (answering HEAD as the GET without its body), or a POST with a body. */
export interface DirectRouteSpec extends OperationDocs {
  /** GET (and HEAD) unless said. */
  method?: "POST";
  /**
   * The full path in Elysia's syntax (`/v1/foods/:foodNumber`, `/v1/foods/:foodNumber/label`): at most
   * one parameter, a whole segment, which the handler gets as `target.param`.
   */
  path: string;
  handle: DirectHandler;
  /** Schemas for the document: the handler reads and checks the query and a POST's body itself (`guardedBody`). */
  query?: TSchema;
  body?: TSchema;
  response?: Readonly<Record<number, TSchema>>;
}

/** A direct route served but kept out of the API's document (`/metrics`, for the operator's scraper). */
export interface HiddenRouteSpec {
  path: string;
  handle: DirectHandler;
  hidden: true;
}

export interface RouteTable {
  /** Every route: Elysia's in the order mounted, then the direct ones in the order declared. */
  readonly routes: readonly Route[];
  /**
   * The request's route, matched the first time it is asked and kept with the request (request-context.ts).
   * `facts`: the request's, when the caller holds them already.
   */
  matchOf(request: Request, facts?: RequestFacts): RouteMatch;
  /** The route declared for `method` and `template` exactly: how a route Elysia matched is found. */
  route(method: string, template: string): Route | undefined;
}

/**
 * `direct`: each capability's direct routes; `elysia`: the app, whose routes are read from it (none yet: the
 * direct routes alone, for a start that composes Elysia after it, src/app/app.ts).
 */
export function createRouteTable(declared: { direct: readonly (DirectRouteSpec | HiddenRouteSpec)[]; elysia: AnyElysia | undefined }): RouteTable {
  const routes = [...(declared.elysia ? elysiaRoutes(declared.elysia) : []), ...declared.direct.map(directRoute)];
  const byOperation = new Map<string, Route>();
  for (const route of routes) {
    const key = operationKey(route.method, route.template);
    if (byOperation.has(key)) throw new Error(`route ${key} is declared twice`);
    byOperation.set(key, route);
  }
  const match = createMatcher(routes);
  return {
    routes,
    matchOf(request, facts = requestFacts(request)) {
      return (facts.match ??= match(request.method, requestUrl(request, facts).path));
    },
    route: (method, template) => byOperation.get(operationKey(method, routePath(template))),
  };
}

const operationKey = (method: string, template: string) => `${method === "HEAD" ? "GET" : method} ${template}`;

function directRoute(spec: DirectRouteSpec | HiddenRouteSpec): Route {
  const template = routePath(spec.path);
  const param = onlyParameter(template);
  if ("hidden" in spec) return { method: "GET", template, handle: spec.handle, hidden: true, hooks: {} };
  const { method = "GET", path: _path, handle, query, body, response, ...docs } = spec;
  const detail = operation(docs);
  const hooks =
    method === "POST"
      ? { body: body ?? Type.Unknown(), ...(response ? { response } : {}), detail }
      : { ...(param === undefined ? {} : { params: Type.Object({ [param]: Type.String() }) }), ...(query ? { query } : {}), ...(response ? { response } : {}), detail };
  return { method, template, handle, notes: notesOf(detail), hidden: false, hooks };
}

/** The name of a direct route's parameter, refusing a template whose handler could not be given one `param`. */
function onlyParameter(template: string): string | undefined {
  const parameters = template.split("/").filter((segment) => segment.includes(":"));
  if (!template.startsWith("/") || template.includes("*") || parameters.length > 1 || parameters.some((p) => !/^:\w+$/.test(p))) {
    throw new Error(`direct route ${template}: the dispatcher matches a full path with at most one parameter, a whole segment`);
  }
  return parameters[0]?.slice(1);
}

type ElysiaRoute = { method: string; path: string; hooks: Record<string, unknown> & { detail?: { hide?: boolean } } };

function elysiaRoutes(app: AnyElysia): Route[] {
  return (app.routes as unknown as ElysiaRoute[]).map(({ method, path, hooks }) => ({
    method,
    template: routePath(path),
    notes: notesOf(hooks.detail),
    hidden: Boolean(hooks.detail?.hide),
    hooks,
  }));
}

/** A template's matches, made once: what a request gets, but for a parameter's value. */
interface PathEntry {
  /** By method (`GET` for `HEAD` too). */
  byMethod: Map<string, RouteMatch>;
  /** For a method no route of the template takes: its template and `Allow`, no route. */
  unmatched: RouteMatch;
}

const NO_MATCH: RouteMatch = Object.freeze({ route: undefined, template: undefined, param: undefined, allow: [] });

/**
 * The matcher: a path (already `routePath`) and a method to the route declared for them, as Elysia's router
 * picks it (a fixed segment before a parameter, a parameter one whole segment). Most templates are fixed
 * paths or end in their only parameter: one map lookup each. Anything else (a parameter mid-path, as
 * `/v1/foods/:foodNumber/label`) is compared segment by segment, its first parameter given as `param`.
 */
function createMatcher(routes: readonly Route[]): (method: string, path: string) => RouteMatch {
  const byTemplate = new Map<string, Route[]>();
  // By the paths a template matches (its parameters unnamed): two templates must not match the same ones.
  const shapes = new Map<string, string>();
  for (const route of routes) {
    const same = byTemplate.get(route.template);
    if (same) {
      same.push(route);
      continue;
    }
    const shape = route.template.replace(/:\w+/g, ":");
    const other = shapes.get(shape);
    if (other !== undefined) throw new Error(`routes ${other} and ${route.template} match the same paths`);
    shapes.set(shape, route.template);
    byTemplate.set(route.template, [route]);
  }
  const exact = new Map<string, PathEntry>();
  // By the prefix before the last segment, for templates whose only parameter is that segment.
  const lastParam = new Map<string, PathEntry>();
  // The others, segment by segment; `param`: the position of the template's first parameter, if any.
  const patterns: { segments: string[]; param: number; entry: PathEntry }[] = [];
  for (const [template, declared] of byTemplate) {
    const allow = Object.freeze([...new Set(declared.flatMap(({ method }) => (method === "GET" ? ["GET", "HEAD"] : [method]))), "OPTIONS"]);
    const entry: PathEntry = {
      byMethod: new Map(declared.map((route) => [route.method, Object.freeze({ route, template, param: undefined, allow })])),
      unmatched: Object.freeze({ route: undefined, template, param: undefined, allow }),
    };
    if (!/[:*]/.test(template)) exact.set(template, entry);
    else if (/^[^:*]*\/:\w+$/.test(template)) lastParam.set(template.slice(0, template.lastIndexOf("/")), entry);
    else {
      const segments = template.split("/");
      patterns.push({ segments, param: segments.findIndex((segment) => segment.startsWith(":")), entry });
    }
  }

  return (method, path) => {
    const wanted = method === "HEAD" ? "GET" : method;
    // The path's template under another method, for `Allow` and labels when no route takes this one.
    let other: PathEntry | undefined = exact.get(path);
    const fixed = other?.byMethod.get(wanted);
    if (fixed) return fixed;
    const slash = path.lastIndexOf("/");
    if (slash > 0 && slash < path.length - 1) {
      const entry = lastParam.get(path.slice(0, slash));
      const found = entry?.byMethod.get(wanted);
      if (found) return { ...found, param: decodeSegment(path.slice(slash + 1)) };
      other ??= entry;
    }
    if (patterns.length > 0) {
      const segments = path.split("/");
      for (const { segments: pattern, param, entry } of patterns) {
        if (!matches(pattern, segments)) continue;
        const found = entry.byMethod.get(wanted);
        if (found) return param === -1 ? found : { ...found, param: decodeSegment(segments[param]!) };
        other ??= entry;
      }
    }
    return other?.unmatched ?? NO_MATCH;
  };
}

function matches(pattern: readonly string[], segments: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    if (part === "*") return true;
    const segment = segments[i];
    if (segment === undefined) return false;
    if (part.startsWith(":") ? segment === "" : part !== segment) return false;
  }
  return pattern.length === segments.length;
}
