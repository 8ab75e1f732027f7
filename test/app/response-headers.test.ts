import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * CORS for the data API, OPTIONS, HSTS and nosniff (design §10), through the real app. The CORS rules:
 * data routes, /v1/meta and the trial routes answer allowed origins; cookie routes (/api/auth/*, /v1/keys)
 * never carry a CORS header; nothing ever carries Access-Control-Allow-Credentials.
 */

const ALLOWED = "https://app.example.com";
const OTHER = "https://evil.example.net";

let listed: TestApp;
let anyOrigin: TestApp;
let plain: TestApp;
let https: TestApp;
let key: string;
/** Every answer these tests saw, to hold them all to the never-credentials rule at the end. */
const seen: { what: string; response: Response }[] = [];

beforeAll(async () => {
  listed = await createTestApp({ env: { FOODAPI_CORS_ORIGINS: `${ALLOWED}, https://second.example.org` } });
  anyOrigin = await createTestApp({ env: { FOODAPI_CORS_ORIGINS: "*" } });
  plain = await createTestApp();
  https = await createTestApp({ env: { FOODAPI_BASE_URL: "https://food.example.com" } });
  key = (await listed.issueKey()).key;
});
afterAll(async () => {
  await Promise.all([listed, anyOrigin, plain, https].map((app) => app?.close()));
});

async function ask(app: TestApp, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  const response = await app.rawRequest(path, { method, headers, body });
  seen.push({ what: `${method} ${path}`, response });
  return response;
}

const preflight = (app: TestApp, path: string, origin: string, method = "GET", extra: Record<string, string> = {}) =>
  ask(app, "OPTIONS", path, { origin, "access-control-request-method": method, ...extra });

const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));
const varyOf = (response: Response) => (response.headers.get("vary") ?? "").split(",").map((v) => v.trim().toLowerCase());

describe("CORS preflight", () => {
  test("from an allowed origin: 204 allowing the credential headers, for a list of origins", async () => {
    for (const path of ["/v1/foods", "/v1/foods/01001", "/v1/food-groups", "/v1/nutrients", "/v1/meta", "/v1/trial-challenge"]) {
      const response = await preflight(listed, path, ALLOWED, "GET", { "access-control-request-headers": "x-api-key" });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(ALLOWED);
      expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
      expect(response.headers.get("access-control-allow-headers")).toBe("X-API-Key, Authorization, Content-Type");
      expect(Number(response.headers.get("access-control-max-age"))).toBeGreaterThan(0);
      expect(varyOf(response)).toContain("origin");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await response.text()).toBe("");
    }
    const token = await preflight(listed, "/v1/trial-token", ALLOWED, "POST", { "access-control-request-headers": "content-type" });
    expect(token.status).toBe(204);
    expect(token.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(token.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  test("from an origin not listed: 204 with Allow, but no CORS header a browser would accept", async () => {
    const response = await preflight(listed, "/v1/foods", OTHER);
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(corsHeaders(response)).toEqual([]);
    expect(varyOf(response)).toContain("origin");
  });

  test("with '*': any origin gets '*', and the answer does not vary by origin", async () => {
    const response = await preflight(anyOrigin, "/v1/foods", OTHER);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(varyOf(response)).not.toContain("origin");
  });
});

describe("CORS on answers", () => {
  test("an allowed origin may read the answer and its RateLimit, Retry-After and ETag headers, errors included", async () => {
    const ok = await ask(listed, "GET", "/v1/foods?q=apple", { origin: ALLOWED, "x-api-key": key });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const exposed = (ok.headers.get("access-control-expose-headers") ?? "").split(",").map((h) => h.trim());
    expect(exposed).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy", "Retry-After", "ETag"]));
    expect(varyOf(ok)).toContain("origin");
    expect(ok.headers.get("ratelimit")).not.toBeNull();

    const detail = await ask(listed, "GET", "/v1/foods/01001", { origin: ALLOWED, "x-api-key": key, "accept-encoding": "zstd" });
    // The detail's own Vary is kept beside Origin.
    expect(varyOf(detail)).toEqual(expect.arrayContaining(["accept-encoding", "origin"]));

    const refused = await ask(listed, "GET", "/v1/foods?q=apple", { origin: ALLOWED });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  test("another origin gets no CORS header (the browser keeps the answer from its script)", async () => {
    const response = await ask(listed, "GET", "/v1/meta", { origin: OTHER });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual([]);
    expect(varyOf(response)).toContain("origin");
  });

  test("cookie routes stay same-origin: no CORS header for any origin, in either mode", async () => {
    for (const app of [listed, anyOrigin]) {
      const answers = [
        await preflight(app, "/v1/keys", ALLOWED, "POST", { "access-control-request-headers": "content-type" }),
        await preflight(app, "/v1/keys/key_x", ALLOWED, "DELETE"),
        await preflight(app, "/api/auth/sign-in/email", ALLOWED, "POST"),
        await ask(app, "GET", "/v1/keys", { origin: ALLOWED }),
        await ask(app, "GET", "/api/auth/get-session", { origin: ALLOWED }),
        await ask(app, "POST", "/api/auth/sign-in/email", { origin: ALLOWED, "content-type": "application/json" }, JSON.stringify({ email: "a@example.com", password: "wrong-password-1" })),
      ];
      for (const response of answers) expect(corsHeaders(response)).toEqual([]);
      // The preflights still say what the route allows.
      expect(answers[0]!.status).toBe(204);
      expect(answers[0]!.headers.get("allow")).toBe("POST, GET, HEAD, OPTIONS");
    }
  });
});

describe("OPTIONS without CORS configured", () => {
  test("a known route: 204 with Allow and no CORS headers; an unknown path: the JSON 404", async () => {
    const known = await ask(plain, "OPTIONS", "/v1/foods/", { origin: ALLOWED, "access-control-request-method": "GET" });
    expect(known.status).toBe(204);
    expect(known.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(corsHeaders(known)).toEqual([]);
    const unknown = await ask(plain, "OPTIONS", "/v1/nothing-here");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
  });

  test("no CORS header on any answer", async () => {
    const response = await ask(plain, "GET", "/v1/meta", { origin: ALLOWED });
    expect(corsHeaders(response)).toEqual([]);
    expect(varyOf(response)).not.toContain("origin");
  });
});

describe("security headers", () => {
  const sample = (app: TestApp) =>
    Promise.all([
      ask(app, "GET", "/v1/meta"),
      ask(app, "GET", "/v1/foods?q=apple"),
      ask(app, "GET", "/no/such/route"),
      ask(app, "GET", "/"),
      ask(app, "GET", "/healthz"),
      ask(app, "OPTIONS", "/v1/foods"),
      ask(app, "POST", "/api/auth/sign-in/email", { "content-type": "application/json" }, "{not json"),
    ]);

  test("Strict-Transport-Security on every answer when the base URL is https, on none otherwise", async () => {
    for (const response of await sample(https)) expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
    for (const response of await sample(plain)) expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  test("nosniff on every answer; the page keeps its CSP", async () => {
    const answers = await sample(https);
    for (const response of answers) expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answers[3]!.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

test("no answer of this file carried Access-Control-Allow-Credentials", () => {
  expect(seen.length).toBeGreaterThan(40);
  const withCredentials = seen.filter(({ response }) => response.headers.has("access-control-allow-credentials")).map(({ what }) => what);
  expect(withCredentials).toEqual([]);
});
