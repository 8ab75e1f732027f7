import { describe, expect, test } from "bun:test";
import { type AnyElysia, Elysia, t } from "elysia";
import { buildOpenApiDocument, undocumentedOperations } from "../../src/docs/openapi";
import { ERRORS } from "../../src/app/error-catalog";
import { createDispatcher, type IpLimitCheck } from "../../src/platform/http/direct-routes";
import { ApiError } from "../../src/platform/http/errors";
import { operation } from "../../src/platform/http/route-notes";
import { createRouteTable, type DirectRouteSpec, type HiddenRouteSpec } from "../../src/platform/http/route-table";

/**
 * The route table on its own, away from the app: one declaration gives the dispatcher's route, its
 * template and the document's notes; Elysia's routes are read from Elysia; and the check names whatever is
 * served without its documentation.
 */
const OPTIONS = { serverUrl: "http://127.0.0.1:3000", version: "0.0.0", freeLimit: { limit: 1000, windowSeconds: 3600 }, errors: ERRORS };

const answer = (body: unknown) => () => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });

const recipes: DirectRouteSpec[] = [
  {
    path: "/v1/recipes",
    response: { 200: t.Object({ items: t.Array(t.String()) }) },
    summary: "All recipes",
    tags: ["Catalog"],
    credential: "apiKeyOrTrial",
    errors: ["UNAUTHORIZED"],
    handle: answer({ items: [] }),
  },
  {
    path: "/v1/recipes/:recipeId",
    summary: "One recipe",
    description: "Its own words reach the document.",
    tags: ["Catalog"],
    credential: "apiKeyOrTrial",
    errors: ["UNAUTHORIZED", "NOT_FOUND"],
    handle: (_request, { param, search }) => answer({ param, search })(),
  },
];

const refuseAll: IpLimitCheck = () => {
  throw new ApiError(429, "TOO_MANY_REQUESTS", "Too many.", { "retry-after": "7" });
};

function served(options: { direct?: (DirectRouteSpec | HiddenRouteSpec)[]; elysia?: AnyElysia; ipLimit?: IpLimitCheck } = {}) {
  const elysia = options.elysia ?? new Elysia();
  const table = createRouteTable({ direct: options.direct ?? recipes, elysia });
  const dispatch = createDispatcher({
    table,
    fallback: elysia.handle,
    toApiError: (error) => {
      if (error instanceof ApiError) return error;
      throw error;
    },
    ipLimit: options.ipLimit ?? (() => {}),
  });
  return { table, dispatch, document: buildOpenApiDocument(table.routes, OPTIONS) };
}

describe("a route table", () => {
  test("gives the dispatcher its routes, answered before Elysia with the target it needs", async () => {
    const { table, dispatch } = served();
    expect(table.routes.filter((route) => route.handle).map(({ method, template }) => `${method} ${template}`)).toEqual(["GET /v1/recipes", "GET /v1/recipes/:recipeId"]);
    const one = await dispatch(new Request("http://localhost/v1/recipes/r%201?full=1"));
    expect(await one.json()).toEqual({ param: "r 1", search: "full=1" });
    const head = await dispatch(new Request("http://localhost/v1/recipes", { method: "HEAD" }));
    expect([head.status, await head.text()]).toEqual([200, ""]);
  });

  test("leaves every other request to Elysia, whose routes it reads with their notes", async () => {
    const elysia = new Elysia()
      .post("/v1/recipes", answer({ from: "elysia" }), { detail: { hide: true } })
      .get("/v1/noted", answer({}), { detail: operation({ summary: "Noted", tags: ["Public"], credential: "none", errors: [], ipLimit: "auth" }) });
    const { table, dispatch } = served({ elysia });
    expect(await (await dispatch(new Request("http://localhost/v1/recipes", { method: "POST" }))).json()).toEqual({ from: "elysia" });
    expect((await dispatch(new Request("http://localhost/v1/recipes", { method: "DELETE" }))).status).toBe(404);
    expect(table.route("GET", "/v1/noted")?.notes).toEqual({ credential: "none", errors: [], ipLimit: "auth" });
    expect(table.route("HEAD", "/v1/noted/")).toBe(table.route("GET", "/v1/noted"));
    expect(table.route("GET", "/v1/recipes/:recipeId")?.notes).toEqual({ credential: "apiKeyOrTrial", errors: ["UNAUTHORIZED", "NOT_FOUND"] });
  });

  test("documents every route it declares, GET and HEAD, with the route's own description", () => {
    const { table, document } = served();
    expect(undocumentedOperations(table.routes, document)).toEqual([]);
    expect(Object.keys(document.paths["/v1/recipes/{recipeId}"]).sort()).toEqual(["get", "head"]);
    expect(document.paths["/v1/recipes/{recipeId}"].get).toMatchObject({
      summary: "One recipe",
      // The GET also says that HEAD answers alike (the HEAD operation itself is hidden from the /docs sidebar).
      description: expect.stringMatching(/^Its own words reach the document\.\n\n`HEAD` answers as `GET` does/),
      security: [{ apiKey: [] }, { trialToken: [] }],
    });
    expect(Object.keys(document.paths["/v1/recipes/{recipeId}"].get.responses).sort()).toEqual(["304", "401", "404", "413"]);
  });

  test("the check names a route missing from the document", () => {
    const { document } = served();
    const secret = createRouteTable({ direct: [{ ...recipes[0]!, path: "/v1/secret" }], elysia: new Elysia() });
    expect(undocumentedOperations(secret.routes, document)).toEqual(["GET /v1/secret", "HEAD /v1/secret"]);
  });

  test("the check names an Elysia route declared without notes, and not one declared with them", () => {
    const elysia = new Elysia()
      .get("/v1/plain", answer({}), { detail: { summary: "No credential, no errors" } })
      .get("/v1/noted", answer({}), { detail: operation({ summary: "Noted", tags: ["Public"], credential: "none", errors: [] }) })
      .get("/v1/page", answer({}), { detail: { hide: true } });
    const { table, document } = served({ elysia });
    expect(undocumentedOperations(table.routes, document)).toEqual(["GET /v1/plain"]);
  });

  test("a hidden direct route is served, and kept out of the document", async () => {
    const { table, dispatch, document } = served({ direct: [...recipes, { path: "/internal", handle: answer({ ok: true }), hidden: true }] });
    expect(await (await dispatch(new Request("http://localhost/internal/"))).json()).toEqual({ ok: true });
    expect(document.paths["/internal"]).toBeUndefined();
    expect(undocumentedOperations(table.routes, document)).toEqual([]);
  });

  test("counts a direct route that names a per-IP limit before its handler, and answers the refusal", async () => {
    let handled = 0;
    const limited: DirectRouteSpec = { ...recipes[0]!, path: "/v1/limited", ipLimit: "auth", handle: () => (handled++, new Response("{}")) };
    const counted: string[] = [];
    const { dispatch } = served({ direct: [limited], ipLimit: (request, route) => void counted.push(`${request.method} ${route.template}`) });
    expect((await dispatch(new Request("http://localhost/v1/limited/", { method: "HEAD" }))).status).toBe(200);
    expect(counted).toEqual(["HEAD /v1/limited"]);
    const refused = await served({ direct: [limited], ipLimit: refuseAll }).dispatch(new Request("http://localhost/v1/limited"));
    expect([refused.status, refused.headers.get("retry-after"), ((await refused.json()) as { code: string }).code]).toEqual([429, "7", "TOO_MANY_REQUESTS"]);
    const refusedLater = await served({ direct: [limited], ipLimit: () => Promise.reject(new ApiError(429, "TOO_MANY_REQUESTS", "Too many.")) }).dispatch(new Request("http://localhost/v1/limited"));
    expect(refusedLater.status).toBe(429);
    expect(handled).toBe(1);
  });

  test("refuses a direct route the dispatcher could not match, and a route declared twice", () => {
    const spec = recipes[0]!;
    const table = (direct: DirectRouteSpec[], elysia: AnyElysia = new Elysia()) => () => createRouteTable({ direct, elysia });
    expect(table([{ ...spec, path: "/v1/:kind/:id" }])).toThrow(/at most one parameter/);
    expect(table([{ ...spec, path: "/v1/x:kind/list" }])).toThrow(/a whole segment/);
    expect(table([{ ...spec, path: "/v1/files/*" }])).toThrow(/at most one parameter/);
    expect(table([{ ...spec, path: "v1/recipes" }])).toThrow(/full path/);
    expect(table([spec, { ...spec, path: "/v1/recipes/" }])).toThrow("route GET /v1/recipes is declared twice");
    expect(table([spec], new Elysia().get("/v1/recipes", answer({})))).toThrow("route GET /v1/recipes is declared twice");
    expect(table([recipes[1]!], new Elysia().patch("/v1/recipes/:id", answer({})))).toThrow("/v1/recipes/:id and /v1/recipes/:recipeId match the same paths");
  });
});

describe("matching a request against the table", () => {
  const elysia = new Elysia()
    .post("/v1/items", answer({}))
    .get("/v1/items/:id/usage", answer({}))
    .patch("/v1/items/:id", answer({}))
    .get("/files/*", answer({}));
  const direct: DirectRouteSpec[] = [
    { ...recipes[0]!, path: "/v1/items" },
    { ...recipes[1]!, path: "/v1/items/:id" },
    { ...recipes[0]!, method: "POST", path: "/v1/items/batch" },
    { ...recipes[1]!, path: "/v1/items/:id/label" },
  ];
  const table = createRouteTable({ direct, elysia });
  const match = (method: string, url: string) => {
    const { route, template, param, allow } = table.matchOf(new Request(`http://localhost${url}`, { method }));
    return { route: route && `${route.method} ${route.template}`, template, param, allow: allow.join(", ") };
  };

  test("finds the route for the method, as Elysia picks it: a fixed segment before a parameter, a parameter one whole segment", () => {
    expect(match("GET", "/v1/items")).toEqual({ route: "GET /v1/items", template: "/v1/items", param: undefined, allow: "POST, GET, HEAD, OPTIONS" });
    expect(match("GET", "/v1/items/a%20b/")).toEqual({ route: "GET /v1/items/:id", template: "/v1/items/:id", param: "a b", allow: "PATCH, GET, HEAD, OPTIONS" });
    expect(match("POST", "/v1/items/batch")).toMatchObject({ route: "POST /v1/items/batch", template: "/v1/items/batch" });
    // No GET at the fixed path: the parameter route takes it, as Elysia's router would.
    expect(match("GET", "/v1/items/batch")).toMatchObject({ route: "GET /v1/items/:id", param: "batch" });
    expect(match("GET", "/v1/items/x/usage/")).toMatchObject({ route: "GET /v1/items/:id/usage", template: "/v1/items/:id/usage" });
    expect(match("HEAD", "/files/a/b.css")).toMatchObject({ route: "GET /files/*", template: "/files/*" });
  });

  test("a direct route's parameter mid-path is matched segment by segment and given to its handler", async () => {
    expect(match("GET", "/v1/items/a%2Fb/label/")).toEqual({ route: "GET /v1/items/:id/label", template: "/v1/items/:id/label", param: "a/b", allow: "GET, HEAD, OPTIONS" });
    expect(match("POST", "/v1/items/x/label")).toMatchObject({ route: undefined, template: "/v1/items/:id/label", param: undefined });
    for (const url of ["/v1/items//label", "/v1/items/x/label/y", "/v1/items/label"]) expect([url, match("GET", url).template]).not.toEqual([url, "/v1/items/:id/label"]);
    const { dispatch } = served({ direct: [{ ...recipes[1]!, path: "/v1/recipes/:recipeId/label" }] });
    expect(await (await dispatch(new Request("http://localhost/v1/recipes/r%201/label?as=svg"))).json()).toEqual({ param: "r 1", search: "as=svg" });
  });

  test("without a route for the method, still names the path's template and its methods (labels, Allow)", () => {
    expect(match("DELETE", "/v1/items/batch")).toEqual({ route: undefined, template: "/v1/items/batch", param: undefined, allow: "POST, OPTIONS" });
    expect(match("OPTIONS", "/v1/items/x")).toMatchObject({ route: undefined, template: "/v1/items/:id" });
  });

  test("no route: an empty segment, a second trailing slash, an encoded fixed segment, another case", () => {
    for (const url of ["/v1/items//usage", "/v1/items//", "/v1/%69tems", "/V1/items", "/v1", "/v1/items/x/y"]) {
      expect([url, match("GET", url).template]).toEqual([url, undefined]);
    }
  });

  test("matches a request once: the match is kept with the request", () => {
    const request = new Request("http://localhost/v1/items");
    expect(table.matchOf(request)).toBe(table.matchOf(request));
  });
});
