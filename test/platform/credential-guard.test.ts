import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: { id: string; key: string; userId: string };

beforeAll(async () => {
  t = await createTestApp();
  key = await t.issueKey();
});
afterAll(() => t.close());

/** Status, body and every header but Date: what must be identical for every refused credential. */
async function snapshot(response: Response) {
  const headers = [...response.headers.entries()].filter(([name]) => name !== "date").sort();
  return { status: response.status, body: await response.text(), headers };
}

describe("the uniform 401 on data routes", () => {
  const cases: [string, Record<string, string>][] = [
    ["no credential", {}],
    ["a malformed key", { "x-api-key": "not-a-key" }],
    ["a well-formed unknown key", { "x-api-key": "fnk_" + "1".repeat(33) }],
    ["an empty key header", { "x-api-key": "" }],
    ["a key in the wrong scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["a garbage bearer token", { authorization: "Bearer garbage.garbage" }],
    ["an empty bearer", { authorization: "Bearer " }],
  ];

  test("every cause gives the identical response on every data route", async () => {
    const reference = await snapshot(await t.request("/v1/foods"));
    expect(reference.status).toBe(401);
    expect(JSON.parse(reference.body)).toEqual({ code: "UNAUTHORIZED", message: "A valid API key or trial token is required." });
    expect(reference.headers).toContainEqual(["www-authenticate", 'Bearer realm="foodapi"']);
    for (const path of ["/v1/foods?q=cheese", "/v1/foods/01001", "/v1/foods/99999", "/v1/food-groups", "/v1/nutrients"]) {
      for (const [, headers] of cases) {
        expect(await snapshot(await t.request(path, { headers }))).toEqual(reference);
      }
    }
  });

  test("a valid key passes, and a key in the query string is not accepted", async () => {
    expect((await t.request("/v1/foods", { headers: { "x-api-key": key.key } })).status).toBe(200);
    expect((await t.request(`/v1/foods?api_key=${key.key}`)).status).toBe(401);
  });

  test("X-API-Key wins over a bearer token when both are sent", async () => {
    const response = await t.request("/v1/foods", { headers: { "x-api-key": key.key, authorization: "Bearer x.y" } });
    expect(response.status).toBe(200);
  });

  test("a revoked key fails on the very next request, with the same 401", async () => {
    const other = await t.issueKey("dev@example.com", "to revoke");
    const before = await t.request("/v1/nutrients", { headers: { "x-api-key": other.key } });
    expect(before.status).toBe(200);
    const revoked = await t.stores.keys.revoke(other.userId, other.id, Date.now());
    expect(revoked?.id).toBe(other.id);
    await t.stores.keyRevocations.onRevoked(revoked!.keyHash);
    const after = await snapshot(await t.request("/v1/nutrients", { headers: { "x-api-key": other.key } }));
    expect(after).toEqual(await snapshot(await t.request("/v1/nutrients")));
  });

  test("the state database holds no plaintext key, only its SHA-256", async () => {
    const rows = await t.state.rows<{ key_hash: string; key_prefix: string }>("SELECT key_hash, key_prefix FROM api_keys");
    expect(rows.length).toBeGreaterThan(0);
    const dump = JSON.stringify(await t.state.rows("SELECT * FROM api_keys"));
    expect(dump).not.toContain(key.key);
    const expectedHash = new Bun.CryptoHasher("sha256").update(key.key).digest("hex");
    expect(rows.map((r) => r.key_hash)).toContain(expectedHash);
    expect(rows.every((r) => r.key_prefix.length === 12 && r.key_prefix.startsWith("fnk_"))).toBe(true);
  });
});
