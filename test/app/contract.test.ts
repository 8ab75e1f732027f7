import { afterAll, describe, expect, test } from "bun:test";
import { ContractViolation, contractOf, createAjv, validatorAt } from "../helpers/contract";
import { forgetFoodApiServer, rawFetch, registerFoodApiServer } from "../helpers/contract-fetch";
import { createTestApp, documentOf } from "../helpers/test-app";
import { startServer } from "../helpers/binary";

/**
 * The contract check itself (helpers/contract.ts): every response the other tests see goes through it, so
 * here it is shown to refuse what it must, lest it pass vacuously.
 */
const t = await createTestApp();
afterAll(() => t.close());
const document = documentOf(t.app);
const contract = contractOf(document);

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
const refusal = (method: string, path: string, response: Response) => contract.check({ method, url: `http://x${path}` }, response).then(() => "accepted", (e: Error) => e);
const rateHeaders = { ratelimit: '"free";r=1;t=1', "ratelimit-policy": '"free";q=2;w=3600' };

describe("the document as a JSON Schema source", () => {
  test("is the served one", async () => {
    expect(await (await t.request("/openapi/json")).json()).toEqual(JSON.parse(JSON.stringify(document)));
  });

  test("every schema in it compiles in ajv (draft 2020-12) with every $ref resolving", () => {
    const ajv = createAjv(document);
    const locations: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        const here = `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        if (key === "schema" && typeof value === "object") locations.push(here);
        else walk(value, here);
      }
    };
    walk(document.paths, "/paths");
    walk(document.components.headers, "/components/headers");
    for (const name of Object.keys(document.components.schemas)) locations.push(`/components/schemas/${name}`);
    expect(locations.length).toBeGreaterThan(50);
    for (const at of locations) expect(() => validatorAt(ajv, at)).not.toThrow();
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) {
      // A header's $ref names a Header Object, whose schema is its `schema`.
      const at = JSON.parse(`{${ref}}`).$ref.slice(1) as string;
      expect(() => validatorAt(ajv, at.startsWith("/components/headers/") ? `${at}/schema` : at)).not.toThrow();
    }
  });

  test("every documented error example is the error shape, with the code it is named for", () => {
    const ajv = createAjv(document);
    const validate = validatorAt(ajv, "/components/schemas/Error");
    let seen = 0;
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        for (const response of Object.values(operation.responses as Record<string, any>)) {
          for (const example of Object.values((response.content?.["application/json"]?.examples ?? {}) as Record<string, { summary: string; value: unknown }>)) {
            expect([validate(example.value), ajv.errorsText(validate.errors)]).toEqual([true, "No errors"]);
            expect((example.value as { code: string }).code).toBe(example.summary);
            seen++;
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(50);
  });
});

describe("the contract check refuses", () => {
  test("a status the operation does not document", async () => {
    const error = await refusal("GET", "/v1/nutrients", json(418, { code: "TEAPOT", message: "No." }));
    expect(error).toBeInstanceOf(ContractViolation);
    expect(String(error)).toContain("GET /v1/nutrients answered 418: status 418 is not documented");
  });

  test("a body that is not the documented shape, naming the operation, the status and ajv's error", async () => {
    const error = await refusal("GET", "/v1/foods", json(200, { items: [{ foodNumber: "01001" }], total: 1, page: "1", limit: 20 }, rateHeaders));
    expect(String(error)).toContain("GET /v1/foods answered 200: body is not valid against the document");
    expect(String(error)).toContain("must have required property 'name'");
    expect(String(error)).toContain("body/page must be integer");
  });

  test("an error that is not the one error shape, also on a route that is not documented", async () => {
    expect(String(await refusal("GET", "/v1/foods/01001", json(404, { error: "nope" }, rateHeaders)))).toContain("must have required property 'code'");
    expect(String(await refusal("GET", "/nowhere", json(404, { code: "NOT_FOUND" })))).toContain("(no documented operation) answered 404");
    expect(await refusal("GET", "/nowhere", json(404, { code: "NOT_FOUND", message: "No such route." }))).toBe("accepted");
  });

  test("a missing required header, and a header of the wrong type", async () => {
    const quota = { code: "RATE_LIMITED", message: "Slow down." };
    expect(String(await refusal("GET", "/v1/nutrients", json(429, quota, rateHeaders)))).toContain("required header Retry-After is missing");
    expect(String(await refusal("GET", "/v1/nutrients", json(429, quota, { ...rateHeaders, "retry-after": "soon" })))).toContain("header Retry-After must be integer");
    expect(String(await refusal("GET", "/v1/nutrients", json(429, quota, { ...rateHeaders, "retry-after": "0" })))).toContain("must be >= 1");
    expect(await refusal("GET", "/v1/nutrients", json(429, quota, { ...rateHeaders, "retry-after": "12" }))).toBe("accepted");
  });

  test("a body where the document shows none (a 204, a HEAD)", async () => {
    expect(String(await refusal("DELETE", "/v1/keys/key_1", new Response("{}", { status: 204 })))).toContain("shows no body");
    expect(await refusal("DELETE", "/v1/keys/key_1", new Response(null, { status: 204, headers: { "cache-control": "no-store" } }))).toBe("accepted");
  });

  test("finds operations by template, with a trailing slash, and the HEAD of a data route", () => {
    expect(contract.operationOf({ method: "GET", url: "http://x/v1/foods/01001/" })?.path).toBe("/v1/foods/{foodNumber}");
    expect(contract.operationOf({ method: "HEAD", url: "http://x/v1/foods?q=a" })?.method).toBe("head");
    expect(contract.operationOf({ method: "PUT", url: "http://x/v1/foods" })).toBeUndefined();
  });
});

describe("the contract check is wired into every response the tests see", () => {
  test("in process: createTestApp's request()", async () => {
    const other = await createTestApp();
    try {
      other.app.handle = () => json(200, { items: "not a list" }, rateHeaders);
      expect(String(await other.request("/v1/food-groups").then(() => "accepted", (e: Error) => e))).toContain("GET /v1/food-groups answered 200");
    } finally {
      await other.close();
    }
  });

  test("a stopped foodapi server's port is no longer checked: another server given that port answers as itself", async () => {
    // One bun test process runs every file: a port the kernel gives again after a server stopped must not
    // carry the stopped server's contract (a bench stand-in answering "ok" failed its /healthz poll so).
    const server = await startServer();
    const port = new URL(server.url).port;
    await server.stop();
    const other = Bun.serve({ hostname: "127.0.0.1", port: Number(port), fetch: () => new Response("ok") });
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect([answer.status, await answer.text()]).toEqual([200, "ok"]);
    } finally {
      other.stop(true);
    }
  });

  test("over HTTP: fetch to a registered foodapi server (preloaded by bunfig.toml)", async () => {
    expect(globalThis.fetch).not.toBe(rawFetch);
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => json(200, { status: "fine" }) });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      // Not registered: not a foodapi server, not checked.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      registerFoodApiServer(url);
      expect(String(await fetch(`${url}/healthz`).then(() => "accepted", (e: Error) => e))).toContain("GET /healthz answered 200: body is not valid");
      expect((await rawFetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      forgetFoodApiServer(`http://127.0.0.1:${server.port}`);
      server.stop(true);
    }
  });
});
