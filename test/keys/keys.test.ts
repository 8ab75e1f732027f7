import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jsonPost, sessionCookie } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "1000/1m", FOODAPI_TRUSTED_ORIGINS: "https://dash.example.com" } });
});
afterAll(() => t.close());

async function account(email: string): Promise<string> {
  return sessionCookie(await t.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "K" })));
}
const createKey = (cookie: string, name: string, headers: Record<string, string> = {}) =>
  t.request("/v1/keys", jsonPost({ name }, { cookie, ...headers }));
const listKeys = async (cookie: string) => ((await (await t.request("/v1/keys", { headers: { cookie } })).json()) as any).items as any[];
const revoke = (cookie: string, id: string, headers: Record<string, string> = {}) =>
  t.request(`/v1/keys/${id}`, { method: "DELETE", headers: { cookie, ...headers } });
const callData = (key: string) => t.request("/v1/food-groups", { headers: { "x-api-key": key } });

describe("/v1/keys with a session", () => {
  test("issue: 201 with the plaintext once; list: newest first, never plaintext", async () => {
    const cookie = await account("keys@example.com");
    const first = await createKey(cookie, "  laptop ");
    expect(first.status).toBe(201);
    const issued = (await first.json()) as any;
    expect(issued).toEqual({
      id: expect.stringMatching(/^key_/), name: "laptop", keyPrefix: issued.key.slice(0, 12), tier: "free",
      key: expect.stringMatching(/^fnk_/), createdAt: expect.any(String),
    });
    const second = (await (await createKey(cookie, "server")).json()) as any;
    const items = await listKeys(cookie);
    expect(items.map((k) => k.id)).toEqual([second.id, issued.id]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(["createdAt", "id", "keyPrefix", "lastUsedAt", "name", "tier"]);
    }
    expect(JSON.stringify(items)).not.toContain(issued.key);
    expect(JSON.stringify(items)).not.toContain(second.key);
    expect((await callData(issued.key)).status).toBe(200);
    const used = (await listKeys(cookie)).find((k) => k.id === issued.id);
    expect(used.lastUsedAt).not.toBeNull();
  });

  test("revoke: 204, the key's next call is 401, the other key still works; revoking again is 404", async () => {
    const cookie = await account("revoker@example.com");
    const a = (await (await createKey(cookie, "a")).json()) as any;
    const b = (await (await createKey(cookie, "b")).json()) as any;
    const response = await revoke(cookie, a.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await callData(a.key)).status).toBe(401);
    expect((await callData(b.key)).status).toBe(200);
    expect((await listKeys(cookie)).map((k) => k.id)).toEqual([b.id]);
    const again = await revoke(cookie, a.id);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ code: "KEY_NOT_FOUND", message: expect.any(String) });
  });

  test("account A revoking account B's key: 404, and B's key still works; unknown id: 404", async () => {
    const alice = await account("alice@example.com");
    const bob = await account("bob@example.com");
    const bobsKey = (await (await createKey(bob, "bob's")).json()) as any;
    const attempt = await revoke(alice, bobsKey.id);
    expect(attempt.status).toBe(404);
    const unknown = await revoke(alice, "key_doesnotexist");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(await attempt.json());
    expect((await callData(bobsKey.key)).status).toBe(200);
    expect(await listKeys(alice)).toEqual([]);
  });

  test("at most 25 active keys: the 26th is 409, and revoking one makes room", async () => {
    const cookie = await account("many@example.com");
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const response = await createKey(cookie, `k${i}`);
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as any).id);
    }
    const over = await createKey(cookie, "one too many");
    expect(over.status).toBe(409);
    expect(((await over.json()) as any).code).toBe("KEY_LIMIT_REACHED");
    expect((await revoke(cookie, ids[0]!)).status).toBe(204);
    expect((await createKey(cookie, "room again")).status).toBe(201);
  });

  test("a bad key name is 400 naming the field", async () => {
    const cookie = await account("names@example.com");
    for (const body of [{ name: "" }, { name: "x".repeat(65) }, { name: 7 }, {}]) {
      const response = await t.request("/v1/keys", jsonPost(body, { cookie }));
      expect(response.status).toBe(400);
      const error = (await response.json()) as any;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.message).toContain("name");
    }
  });
});

describe("without a valid session", () => {
  test("every key route answers 401 UNAUTHORIZED", async () => {
    for (const [path, init] of [
      ["/v1/keys", {}],
      ["/v1/keys", jsonPost({ name: "x" })],
      ["/v1/keys/key_x", { method: "DELETE" }],
      ["/v1/keys", { headers: { cookie: "foodapi.session_token=forged" } }],
    ] as [string, RequestInit][]) {
      const response = await t.request(path, init);
      expect(response.status).toBe(401);
      expect(((await response.json()) as any).code).toBe("UNAUTHORIZED");
    }
  });

  test("an API key is not a session", async () => {
    const key = await t.issueKey("apikey-only@example.com");
    expect((await t.request("/v1/keys", { headers: { "x-api-key": key.key } })).status).toBe(401);
  });
});

describe("CSRF: cookie-authenticated changes check Origin, then Referer", () => {
  test("a cross-site Origin is 403 INVALID_ORIGIN on issue, revoke and sign-out; nothing changes", async () => {
    const cookie = await account("csrf@example.com");
    const evil = { origin: "https://evil.example" };
    const issue = await createKey(cookie, "x", evil);
    expect(issue.status).toBe(403);
    expect(await issue.json()).toEqual({ code: "INVALID_ORIGIN", message: expect.any(String) });
    expect(await listKeys(cookie)).toEqual([]);
    const key = (await (await createKey(cookie, "mine")).json()) as any;
    expect((await revoke(cookie, key.id, evil)).status).toBe(403);
    expect((await t.request("/api/auth/sign-out", jsonPost({}, { cookie, ...evil }))).status).toBe(403);
    expect((await listKeys(cookie)).map((k) => k.id)).toEqual([key.id]);
    expect((await revoke(cookie, key.id, { referer: "https://evil.example/page" })).status).toBe(403);
  });

  test("the service's own origin, a trusted origin, and no header at all pass", async () => {
    const cookie = await account("csrf-ok@example.com");
    expect((await createKey(cookie, "own", { origin: "http://127.0.0.1:3000" })).status).toBe(201);
    expect((await createKey(cookie, "trusted", { origin: "https://dash.example.com" })).status).toBe(201);
    expect((await createKey(cookie, "referer", { referer: "http://127.0.0.1:3000/dashboard" })).status).toBe(201);
    expect((await createKey(cookie, "script")).status).toBe(201);
  });
});
