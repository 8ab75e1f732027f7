import { afterAll, describe, expect, test } from "bun:test";
import { validate } from "@scalar/openapi-parser";
import { Elysia } from "elysia";
import { EMAIL_MAX_LENGTH } from "../../src/accounts/email";
import { USER_NAME_MAX_LENGTH } from "../../src/accounts/model";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../src/accounts/passwords";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, QUERY_MAX_CHARS } from "../../src/catalog/model";
import { documentedOperations, servedOperations, undocumentedOperations } from "../../src/docs/openapi";
import { createDispatcher } from "../../src/platform/http/direct-routes";
import { createRouteTable } from "../../src/platform/http/route-table";
import { KEY_CACHE_TTL_MS } from "../../src/keys/active-keys";
import { KEY_NAME_MAX_LENGTH } from "../../src/keys/service";
import { createTestApp } from "../helpers/test-app";

/**
 * The OpenAPI document at /openapi/json. The rule for what it covers: every route the app serves, the
 * direct routes (answered before Elysia, for GET and HEAD) and Elysia's, except those marked
 * `detail: { hide: true }`, which are the pages and their files (`/`, `/assets/*`, `/docs`, `/docs/*`) and
 * the document itself. Each of those is listed below, so nothing else can hide.
 */
const HIDDEN = [
  "GET /",
  "GET /assets/altcha-pbkdf2-worker.js",
  "GET /assets/altcha.css",
  "GET /assets/altcha.js",
  "GET /assets/dashboard.css",
  "GET /assets/dashboard.js",
  "GET /assets/food-groups.json",
  "GET /assets/nutrients.json",
  "GET /docs",
  "GET /docs/scalar.js",
  "GET /openapi/json",
];

const t = await createTestApp();
afterAll(() => t.close());

type Operation = { security?: unknown[]; description?: string; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, any> }>; requestBody?: any };
async function openApiDocument() {
  const response = await t.request("/openapi/json");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return (await response.json()) as { openapi: string; paths: Record<string, Record<string, Operation>>; components: Record<string, any> };
}

const served = (hidden: boolean) =>
  t.app.elysia.routes
    .filter((route) => Boolean((route.hooks as { detail?: { hide?: boolean } }).detail?.hide) === hidden)
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`)
    .sort();

describe("the OpenAPI document", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const document = await openApiDocument();
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("every served API operation is in it, with its notes, and every operation in it is served", async () => {
    const document = await openApiDocument();
    expect(undocumentedOperations(t.app.routes, document)).toEqual([]);
    expect(documentedOperations(document)).toEqual(servedOperations(t.app.routes));
    // The direct routes: each answers GET and HEAD, or POST (a data route with a body), and is declared
    // once, in the route table, not on Elysia too.
    const direct = ["/healthz", "/v1/foods", "/v1/foods/{foodNumber}", "/v1/foods/suggest", "/v1/foods/{foodNumber}/label", "/v1/food-groups", "/v1/nutrients"];
    expect(servedOperations(t.app.routes.filter((route) => route.handle))).toEqual(
      [...direct.flatMap((path) => [`GET ${path}`, `HEAD ${path}`]), "POST /v1/foods/lookup", "POST /v1/analyze"].sort(),
    );
    for (const path of direct) expect(served(false)).not.toContain(`GET ${path}`);
    expect(documentedOperations(document).length).toBeGreaterThanOrEqual(20);
    expect(served(true)).toEqual(HIDDEN);
  });

  test("a route served but missing from the document, built from other routes, is reported undocumented", async () => {
    const document = await openApiDocument();
    const recipes = createRouteTable({
      direct: [{ path: "/v1/recipes/:id", summary: "One recipe", tags: ["Catalog"], credential: "none", errors: [], handle: () => new Response("{}") }],
      elysia: new Elysia(),
    });
    const dispatcher = createDispatcher({
      table: recipes,
      fallback: t.app.elysia.handle,
      toApiError: () => {
        throw new Error("unused");
      },
      ipLimit: () => {},
    });
    expect((await dispatcher(new Request("http://x/v1/recipes/1"))).status).toBe(200);
    expect(undocumentedOperations([...t.app.routes, ...recipes.routes], document)).toEqual(["GET /v1/recipes/{id}", "HEAD /v1/recipes/{id}"]);
  });

  test("deleting the account and revoking a key promise no more than the key cache's bound where no signal reaches", async () => {
    const { paths } = await openApiDocument();
    for (const operation of [paths["/api/auth/delete-user"]!.post!, paths["/v1/keys/{id}"]!.delete!]) {
      expect(operation.description).toContain(`with PostgreSQL and no Redis, at once on the process that answered and within ${KEY_CACHE_TTL_MS / 1000} s on the others`);
    }
  });

  test("the detail route's own description is in it, beside the notes", async () => {
    const { paths } = await openApiDocument();
    const detail = paths["/v1/foods/{foodNumber}"]!;
    for (const operation of [detail.get!, detail.head!]) {
      expect(operation.description).toContain("Sent compressed as stored at build time (`Content-Encoding: zstd` or `gzip`");
      expect(operation.description).toContain("Nutrient values are per 100 g of edible portion");
    }
  });

  test("both credential schemes and the session cookie, each on the routes that take it", async () => {
    const { paths, components } = await openApiDocument();
    expect(components.securitySchemes).toMatchObject({
      apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
      trialToken: { type: "http", scheme: "bearer" },
      sessionCookie: { type: "apiKey", in: "cookie", name: "foodapi.session_token" },
    });
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        // Every operation says what it takes, if only "nothing" ([]): no route is left undescribed.
        expect([method, path, Array.isArray(operation.security)]).toEqual([method, path, true]);
      }
    }
    expect(paths["/v1/foods"]!.get!.security).toEqual([{ apiKey: [] }, { trialToken: [] }]);
    expect(paths["/v1/keys"]!.post!.security).toEqual([{ sessionCookie: [] }]);
    expect(paths["/v1/keys/{id}"]!.delete!.security).toEqual([{ sessionCookie: [] }]);
    expect(paths["/api/auth/sign-in/email"]!.post!.security).toEqual([]);
  });

  test("the error shape, the rate-limit headers and examples", async () => {
    const { paths, components } = await openApiDocument();
    expect(components.schemas.Error).toMatchObject({ required: ["code", "message"] });
    expect(Object.keys(components.headers).sort()).toEqual([
      "Cache-Control", "Cache-Control-No-Store", "Content-Encoding", "ETag", "RateLimit", "RateLimit-Policy", "Retry-After", "Set-Cookie", "Set-Cookie-When-Changed", "Vary", "WWW-Authenticate",
    ]);

    const search = paths["/v1/foods"]!.get!;
    expect(Object.keys(search.responses).sort()).toEqual(["200", "304", "400", "401", "413", "429", "503"]);
    expect(Object.keys(search.responses["200"]!.headers!)).toEqual(["ETag", "Cache-Control", "Vary", "Content-Encoding", "RateLimit-Policy", "RateLimit"]);
    expect(Object.keys(search.responses["304"]!.headers!)).toEqual(["ETag", "Cache-Control", "Vary", "RateLimit-Policy", "RateLimit"]);
    expect(search.responses["304"]!.content).toBeUndefined();
    expect(Object.keys(search.responses["429"]!.headers!).sort()).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After"]);
    expect(Object.keys(search.responses["401"]!.headers!)).toEqual(["WWW-Authenticate"]);
    expect(Object.keys(search.responses["429"]!.content!["application/json"].examples).sort()).toEqual(["RATE_LIMITED", "TRIAL_QUOTA_EXHAUSTED"]);
    expect(search.responses["200"]!.content!["application/json"].example.items[0]).toEqual({ foodNumber: "01009", name: "Cheese, cheddar" });

    const signUp = paths["/api/auth/sign-up/email"]!.post!;
    expect(Object.keys(signUp.requestBody.content)).toEqual(["application/json"]);
    expect(signUp.requestBody.content["application/json"].schema.required).toEqual(["email", "password", "name"]);
    expect(signUp.responses["200"]!.headers).toEqual({ "Set-Cookie": { $ref: "#/components/headers/Set-Cookie" } });
    // An answer about an account says it is not to be kept, and the contract check holds every answer to it.
    expect(paths["/v1/keys"]!.get!.responses["200"]!.headers).toEqual({ "Cache-Control": { $ref: "#/components/headers/Cache-Control-No-Store" } });
    expect(paths["/api/auth/get-session"]!.get!.responses["200"]!.headers).toEqual({ "Cache-Control": { $ref: "#/components/headers/Cache-Control-No-Store" } });
    const signIn = paths["/api/auth/sign-in/email"]!.post!;
    expect(Object.keys(signIn.responses["429"]!.content!["application/json"].examples).sort()).toEqual(["PASSWORD_ATTEMPTS_LIMITED", "TOO_MANY_REQUESTS"]);

    // Every documented error is the one error shape, with examples (the health check's 503 is its own
    // shape; a HEAD has no body).
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400 || (path === "/healthz" && status === "503") || method === "head") continue;
          expect(response.content!["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
          for (const example of Object.values(response.content!["application/json"].examples as Record<string, { value: object }>)) {
            expect(Object.keys(example.value).sort()).toEqual(["code", "message"]);
          }
        }
      }
    }
  });

  test("integers are integers, and the input rules are schema keywords from the server's constants", async () => {
    const document = await openApiDocument();
    // Elysia's coercing t.Integer shows as a string-or-integer union with `default: 0`: none may be left.
    expect(JSON.stringify(document)).not.toContain('"format":"integer"');
    const parameters = Object.fromEntries(
      (document.paths["/v1/foods"]!.get as unknown as { parameters: { name: string; schema: Record<string, any> }[] }).parameters.map((p) => [p.name, p.schema]),
    );
    expect(parameters.page).toMatchObject({ type: "integer", minimum: 1, default: 1 });
    expect(parameters.limit).toMatchObject({ type: "integer", minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT });
    expect(parameters.q).toMatchObject({ type: "string", maxLength: QUERY_MAX_CHARS });
    // The nutrient parameters: `sort` and `order` as they are; `nutrient.<number>` has a name per nutrient,
    // so it is documented by one example (`nutrient.203`) whose description says what it stands for.
    expect(parameters.sort).toMatchObject({ type: "string", pattern: expect.stringContaining("nutrient") });
    expect(parameters.order).toMatchObject({ enum: ["asc", "desc"] });
    expect(parameters["nutrient.203"]).toMatchObject({ type: "string", description: expect.stringContaining("Stands for `nutrient.<number>`") });
    for (const [range, valid] of [["20..", true], ["..140", true], ["100..250", true], ["0.5..1.25", true], ["20", false], ["..", false], ["a..", false]] as const) {
      expect([range, new RegExp(parameters["nutrient.203"]!.pattern).test(range)]).toEqual([range, valid]);
    }
    const body = (path: string) => document.paths[path]!.post!.requestBody.content["application/json"].schema.properties;
    expect(body("/api/auth/sign-up/email")).toMatchObject({
      email: { format: "email", maxLength: EMAIL_MAX_LENGTH },
      password: { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH },
      name: { minLength: 1, maxLength: USER_NAME_MAX_LENGTH },
    });
    expect(body("/v1/keys")).toMatchObject({ name: { minLength: 1, maxLength: KEY_NAME_MAX_LENGTH } });
    // The data routes' HEAD: the GET's parameters and statuses, no bodies; said on the GET, and left out
    // of /docs's sidebar, which would list each data route twice.
    const head = document.paths["/v1/foods"]!.head!;
    expect(Object.keys(head.responses)).toEqual(Object.keys(document.paths["/v1/foods"]!.get!.responses));
    expect(Object.values(head.responses).every((response) => response.content === undefined)).toBe(true);
    expect((head as Record<string, unknown>)["x-scalar-ignore"]).toBe(true);
    expect(document.paths["/v1/foods"]!.get!.description).toContain("`HEAD` answers as `GET` does");
  });

  test("the documented examples match what the API answers", async () => {
    const { paths } = await openApiDocument();
    const key = (await t.issueKey()).key;
    const answer = async (path: string) => (await t.request(path, { headers: { "x-api-key": key } })).json() as Promise<any>;
    const example = (path: string) => paths[path]!.get!.responses["200"]!.content!["application/json"].example;
    expect(await answer("/v1/foods?q=cheddar&limit=1")).toEqual(example("/v1/foods"));
    expect(await answer("/v1/foods/01001?nutrients=208")).toMatchObject(example("/v1/foods/{foodNumber}"));
    expect((await answer("/v1/food-groups")).items).toContainEqual(example("/v1/food-groups").items[0]);
    expect((await answer("/v1/nutrients")).items).toContainEqual(example("/v1/nutrients").items[0]);
    const unauthorized = await (await t.request("/v1/nutrients")).json();
    expect(paths["/v1/nutrients"]!.get!.responses["401"]!.content!["application/json"].examples.UNAUTHORIZED.value).toEqual(unauthorized);
  });
});
