import { describe, expect, test } from "bun:test";
import { type AnyElysia, Elysia, t } from "elysia";
import { buildOpenApiDocument, undocumentedOperations } from "../../src/docs/openapi";
import { ERRORS } from "../../src/app/error-catalog";
import { createDispatcher, type DirectRoute } from "../../src/platform/http/direct-routes";
import { type DirectRouteSpec, directRoutes, mountRoutes, notesOf, operation } from "../../src/platform/http/route-table";

/**
 * The route table on its own, away from the app: one declaration gives the dispatcher's route, the Elysia
 * route and the document's notes, and the check names whatever is served without them.
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

function served(extraDirect: DirectRoute[] = [], elysia: AnyElysia = mountRoutes(new Elysia(), recipes)) {
  const dispatcher = createDispatcher([...directRoutes(recipes), ...extraDirect], elysia.handle, () => {
    throw new Error("unused");
  });
  return { dispatcher, api: { direct: dispatcher.routes, elysia }, document: buildOpenApiDocument(elysia, OPTIONS) };
}

describe("a route table", () => {
  test("gives the dispatcher its routes, answered before Elysia with the target it needs", async () => {
    const { dispatcher } = served();
    expect(dispatcher.routes.map(({ path, param }) => [path, param])).toEqual([["/v1/recipes", undefined], ["/v1/recipes", "recipeId"]]);
    const one = await dispatcher.handle(new Request("http://localhost/v1/recipes/r%201?full=1"));
    expect(await one.json()).toEqual({ param: "r 1", search: "full=1" });
    const head = await dispatcher.handle(new Request("http://localhost/v1/recipes", { method: "HEAD" }));
    expect([head.status, await head.text()]).toEqual([200, ""]);
  });

  test("mounts the same handlers on Elysia, for the methods the dispatcher leaves to it", async () => {
    const elysia = mountRoutes(new Elysia(), recipes);
    expect(elysia.routes.map((route) => `${route.method} ${route.path}`)).toEqual(["GET /v1/recipes", "GET /v1/recipes/:recipeId"]);
    expect(await (await elysia.handle(new Request("http://localhost/v1/recipes/r1?full=1"))).json()).toEqual({ param: "r1", search: "full=1" });
    expect(notesOf(elysia.routes[1]!.hooks.detail)).toEqual({ credential: "apiKeyOrTrial", errors: ["UNAUTHORIZED", "NOT_FOUND"], head: true });
  });

  test("documents every route it declares, GET and HEAD, with the route's own description", () => {
    const { api, document } = served();
    expect(undocumentedOperations(api, document)).toEqual([]);
    expect(Object.keys(document.paths["/v1/recipes/{recipeId}"]).sort()).toEqual(["get", "head"]);
    expect(document.paths["/v1/recipes/{recipeId}"].get).toMatchObject({
      summary: "One recipe",
      // The GET also says that HEAD answers alike (the HEAD operation itself is hidden from the /docs sidebar).
      description: expect.stringMatching(/^Its own words reach the document\.\n\n`HEAD` answers as `GET` does/),
      security: [{ apiKey: [] }, { trialToken: [] }],
    });
    expect(Object.keys(document.paths["/v1/recipes/{recipeId}"].get.responses).sort()).toEqual(["304", "401", "404", "413"]);
  });

  test("the check names a route given to the dispatcher alone", () => {
    const { api, document } = served([{ path: "/v1/secret", handle: answer({}) }]);
    expect(undocumentedOperations(api, document)).toEqual(["GET /v1/secret", "HEAD /v1/secret"]);
  });

  test("the check names an Elysia route declared without notes, and not one declared with them", () => {
    const elysia = mountRoutes(new Elysia(), recipes)
      .get("/v1/plain", answer({}), { detail: { summary: "No credential, no errors" } })
      .get("/v1/noted", answer({}), { detail: operation({ summary: "Noted", tags: ["Public"], credential: "none", errors: [] }) })
      .get("/v1/page", answer({}), { detail: { hide: true } });
    const { api, document } = served([], elysia);
    expect(undocumentedOperations(api, document)).toEqual(["GET /v1/plain"]);
  });

  test("refuses a direct route the dispatcher could not match", () => {
    const spec = recipes[0]!;
    expect(() => directRoutes([{ ...spec, path: "/v1/:kind/list" }])).toThrow(/at most one parameter, its last segment/);
    expect(() => directRoutes([{ ...spec, path: "/v1/:kind/:id" }])).toThrow(/at most one parameter/);
    expect(() => directRoutes([{ ...spec, path: "v1/recipes" }])).toThrow(/full path/);
  });
});
