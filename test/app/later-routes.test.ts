import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { UNMATCHED_ROUTE } from "../../src/metrics/registry";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * `serve` composes Elysia's routes after the start (design §18, src/app/app.ts `composeElysiaLater`): the
 * direct routes answer at once, and a request for any other route waits for the complete route table.
 * Whichever request comes first, its answer is the one an app composed at once gives, and it is counted
 * under its own template.
 */

const ORIGIN = "https://app.example";
// CORS and an https base URL (HSTS): the headers the response layer adds must be added once, not twice.
const ENV = { FOODAPI_CORS_ORIGINS: ORIGIN, FOODAPI_BASE_URL: "https://api.example", FOODAPI_METRICS_TOKEN: "later-routes-metrics-token-0123456789" };

/** Requests that no direct route answers: each is the first request of an app whose Elysia is not composed. */
const FIRST_REQUESTS: { name: string; path: string; init?: RequestInit; template: string }[] = [
  { name: "an Elysia route, with an Origin", path: "/v1/meta", init: { headers: { origin: ORIGIN } }, template: "/v1/meta" },
  { name: "a CORS preflight of a data route", path: "/v1/foods", init: { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "GET" } }, template: "/v1/foods" },
  { name: "OPTIONS of an Elysia route", path: "/api/auth/sign-in/email", init: { method: "OPTIONS" }, template: "/api/auth/sign-in/email" },
  { name: "a method a data route does not take", path: "/v1/foods/01001", init: { method: "DELETE" }, template: "/v1/foods/:foodNumber" },
  { name: "a session route without a session", path: "/v1/keys", template: "/v1/keys" },
  { name: "a path no route has", path: "/v1/nothing-here", template: UNMATCHED_ROUTE },
  { name: "the API reference page", path: "/docs", template: "/docs" },
];

let composedAtOnce: TestApp;
beforeAll(async () => {
  composedAtOnce = await createTestApp({ env: ENV });
});
afterAll(() => composedAtOnce?.close());

/** Status, headers and body: what a client can tell apart. */
async function seen(response: Response) {
  return { status: response.status, headers: [...response.headers].sort(), body: await response.text() };
}

describe("Elysia's routes composed after the start", () => {
  test("a data request is answered before they are composed, and composing them keeps serving it", async () => {
    const t = await createTestApp({ env: ENV, composeElysiaLater: true });
    try {
      const { key } = await t.issueKey();
      const search = await t.rawRequest("/v1/foods?q=cheddar&limit=1", { headers: { "x-api-key": key } });
      expect(search.status).toBe(200);
      const head = await t.rawRequest("/healthz", { method: "HEAD" });
      expect(head.status).toBe(200);
      // Not composed by those: the direct routes needed nothing of Elysia.
      expect(() => t.app.elysia).toThrow(/not composed/);
      await t.app.completeRoutes();
      expect(t.app.elysia.routes.length).toBeGreaterThan(10);
      expect(t.app.routes).toEqual(composedAtOnce.app.routes.map((route) => expect.objectContaining({ method: route.method, template: route.template })));
      expect((await t.rawRequest("/v1/foods?q=cheddar&limit=1", { headers: { "x-api-key": key } })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  for (const { name, path, init, template } of FIRST_REQUESTS) {
    test(`${name} as the first request: the answer of an app composed at once, counted under ${template}`, async () => {
      const t = await createTestApp({ env: ENV, composeElysiaLater: true });
      try {
        const request = new Request(`http://127.0.0.1:3000${path}`, init);
        const later = await t.app.handle(request);
        const atOnce = await composedAtOnce.app.handle(new Request(`http://127.0.0.1:3000${path}`, init));
        expect(await seen(later)).toEqual(await seen(atOnce));
        expect(t.app.observe(request, later.status, 1)).toBe(template);
      } finally {
        await t.close();
      }
    });
  }
});
