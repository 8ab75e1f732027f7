import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { t as schema } from "elysia";
import { AUTH_LIMIT } from "../../src/accounts/route-deps";
import { type AccessLogEntry, startHttpServer } from "../../src/app/http/server";
import { undocumentedOperations } from "../../src/docs/openapi";
import { JSON_CONTENT_TYPE, SECURITY_HEADERS } from "../../src/platform/http/errors";
import type { DirectRouteSpec } from "../../src/platform/http/route-table";
import { jsonPost } from "../helpers/http";
import { parsePrometheusText, sampleValue } from "../helpers/prometheus";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * One route table (design §1): a route declared in one place, as the capabilities declare theirs, is
 * answered on the fast path, counted in the metrics under its template, limited per IP by its template,
 * and described in the OpenAPI document. The route is added to a test app beside the real ones.
 */

const TOKEN = "route-table-metrics-token-0123456789";
const PER_MINUTE = 3;

const echo: DirectRouteSpec = {
  path: "/v1/echo/:word",
  response: { 200: schema.Object({ word: schema.String() }) },
  summary: "Echoes a word",
  tags: ["Public"],
  credential: "none",
  errors: ["TOO_MANY_REQUESTS"],
  ipLimit: AUTH_LIMIT,
  handle: (_request, { param }) => new Response(JSON.stringify({ word: param }), { headers: { "content-type": JSON_CONTENT_TYPE, ...SECURITY_HEADERS } }),
};

let t: TestApp;
let server: Server<undefined>;
const logged: AccessLogEntry[] = [];
beforeAll(async () => {
  t = await createTestApp({ env: { FOODAPI_METRICS_TOKEN: TOKEN, FOODAPI_AUTH_LIMIT: `${PER_MINUTE}/1m` }, routes: [echo] });
  // The app behind the real HTTP server, which counts every answer in the metrics and logs it.
  server = startHttpServer({
    hostname: "127.0.0.1",
    port: 0,
    clientIpHeader: "cf-connecting-ip",
    handle: t.app.handle,
    observe: t.app.observe,
    log: (entry) => logged.push(entry),
    logRoute: true,
    idleTimeoutSeconds: 10,
  });
});
afterAll(async () => {
  await server?.stop(true);
  await t?.close();
});

const fromIp = (ip: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { "cf-connecting-ip": ip, ...(init.headers as Record<string, string>) } });

describe("a route added in one place", () => {
  test("is answered on the fast path: Elysia does not know it", async () => {
    const answered = await t.request("/v1/echo/caf%C3%A9/", fromIp("198.51.100.1"));
    expect([answered.status, await answered.json()]).toEqual([200, { word: "café" }]);
    // HEAD as the GET without its body: the dispatcher's rule for every direct route.
    const head = await t.request("/v1/echo/x", fromIp("198.51.100.1", { method: "HEAD" }));
    expect([head.status, await head.text()]).toEqual([200, ""]);
    // The Elysia app alone has no such route.
    expect((await t.app.elysia.handle(new Request("http://127.0.0.1:3000/v1/echo/x"))).status).toBe(404);
  });

  test("is counted in the metrics under its template, never a raw path", async () => {
    for (const path of ["/v1/echo/one", "/v1/echo/two/", "/v1/echo/thr%65e"]) {
      const response = await fetch(`${server.url}${path.slice(1)}`, { headers: { "cf-connecting-ip": "198.51.100.2" } });
      expect([path, response.status]).toEqual([path, 200]);
    }
    const scraped = await fetch(`${server.url}metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    const families = parsePrometheusText(text);
    expect(sampleValue(families, "foodapi_http_requests_total", { route: "/v1/echo/:word", method: "GET", status: "200" })).toBe(3);
    expect(text).not.toContain("/v1/echo/one");
    // The access log: the path as sent (without the query), the route it was matched to.
    const lines = logged.filter((entry) => entry.path.startsWith("/v1/echo/"));
    expect(lines.map(({ path, route }) => [path, route])).toEqual([
      ["/v1/echo/one", "/v1/echo/:word"],
      ["/v1/echo/two/", "/v1/echo/:word"],
      ["/v1/echo/thr%65e", "/v1/echo/:word"],
    ]);
  });

  test("is limited per IP by its template: another word or a trailing slash is the same bucket", async () => {
    const ip = "198.51.100.3";
    const statuses = [];
    for (const path of ["/v1/echo/a", "/v1/echo/b/", "/v1/echo/%63"]) statuses.push((await t.request(path, fromIp(ip))).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await t.request("/v1/echo/a/", fromIp(ip));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe("TOO_MANY_REQUESTS");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client is not affected, nor is another route of the same limit (its own bucket).
    expect((await t.request("/v1/echo/a", fromIp("198.51.100.4"))).status).toBe(200);
    expect((await t.request("/api/auth/sign-in/email", fromIp(ip, jsonPost({ email: "nobody@example.com", password: 1 })))).status).toBe(400);
  });

  test("is in the OpenAPI document, GET and HEAD, with its notes", async () => {
    const response = await t.request("/openapi/json");
    const document = (await response.json()) as { paths: Record<string, Record<string, { summary: string; security: unknown[]; responses: Record<string, unknown> }>> };
    const item = document.paths["/v1/echo/{word}"]!;
    expect(Object.keys(item).sort()).toEqual(["get", "head"]);
    expect(item.get).toMatchObject({ summary: "Echoes a word", security: [] });
    expect(Object.keys(item.get!.responses)).toContain("429");
    expect(undocumentedOperations(t.app.routes, document)).toEqual([]);
  });
});
