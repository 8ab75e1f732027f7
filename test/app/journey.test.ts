import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startServer, type RunningServer } from "../helpers/binary";
import { sessionCookie } from "../helpers/http";

/** Accounts and keys over real HTTP against the compiled binary, with its default limits. */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

let ipCounter = 0;
/** A fresh client IP per scenario (via the edge-proxy header), so the per-IP sign-in limit stays out of the way. */
const freshIp = () => `198.51.100.${++ipCounter}`;

function call(path: string, init: { method?: string; body?: unknown; cookie?: string; key?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { "cf-connecting-ip": init.ip ?? freshIp() };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.cookie) headers.cookie = init.cookie;
  if (init.key) headers["x-api-key"] = init.key;
  return fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

describe("the whole journey against the binary", () => {
  test("sign up, issue two keys, use them, revoke one, sign out, sign in again", async () => {
    const signedUp = await call("/api/auth/sign-up/email", { body: { email: "journey@example.com", password: "a long password", name: "J" } });
    expect(signedUp.status).toBe(200);
    const setCookie = signedUp.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^foodapi\.session_token=[1-9A-HJ-NP-Za-km-z]{40,}; /);
    for (const attribute of ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=604800"]) expect(setCookie).toContain(attribute);
    let cookie = sessionCookie(signedUp);

    const first = (await (await call("/v1/keys", { body: { name: "first" }, cookie })).json()) as any;
    const second = (await (await call("/v1/keys", { body: { name: "second" }, cookie })).json()) as any;
    const listed = (await (await call("/v1/keys", { cookie })).json()) as any;
    expect(listed.items.map((k: any) => [k.name, k.keyPrefix])).toEqual([
      ["second", second.key.slice(0, 12)],
      ["first", first.key.slice(0, 12)],
    ]);
    expect(JSON.stringify(listed)).not.toContain(first.key);

    for (const key of [first.key, second.key]) {
      const search = await call("/v1/foods?q=apple&limit=2", { key });
      expect(search.status).toBe(200);
      expect(((await search.json()) as any).items).toHaveLength(2);
    }

    expect((await call(`/v1/keys/${first.id}`, { method: "DELETE", cookie })).status).toBe(204);
    expect((await call("/v1/foods/01001", { key: first.key })).status).toBe(401);
    expect((await call("/v1/foods/01001", { key: second.key })).status).toBe(200);

    const signedOut = await call("/api/auth/sign-out", { body: {}, cookie });
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await call("/v1/keys", { cookie })).status).toBe(401);
    expect((await call("/v1/keys", { body: { name: "after sign-out" }, cookie })).status).toBe(401);

    const signedIn = await call("/api/auth/sign-in/email", { body: { email: "journey@example.com", password: "a long password" } });
    expect(signedIn.status).toBe(200);
    cookie = sessionCookie(signedIn);
    const after = (await (await call("/v1/keys", { cookie })).json()) as any;
    expect(after.items.map((k: any) => k.id)).toEqual([second.id]);
  });

  test("with --port 0 the service's own origin is the port it bound: same-origin POSTs pass, others are 403", async () => {
    const signedUp = await call("/api/auth/sign-up/email", { body: { email: "origin@example.com", password: "a long password", name: "O" } });
    const cookie = sessionCookie(signedUp);
    const post = (origin: string) =>
      fetch(`${server.url}/v1/keys`, { method: "POST", headers: { cookie, origin, "content-type": "application/json" }, body: JSON.stringify({ name: "o" }) });
    expect((await post(server.url)).status).toBe(201);
    expect((await post("http://127.0.0.1:1")).status).toBe(403);
  });

  test("20 concurrent sign-ups with one e-mail over the socket: one 200, nineteen 422, no 5xx", async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call("/api/auth/sign-up/email", { body: { email: "same@example.com", password: "password123", name: "S" } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
  });

  test("the 11th sign-in within a minute from one IP is 429 with Retry-After; another IP is not limited, but the account is", async () => {
    const ip = freshIp();
    const attempt = (from: string, email = "journey@example.com") => call("/api/auth/sign-in/email", { body: { email, password: "wrong password" }, ip: from });
    for (let i = 0; i < 10; i++) expect((await attempt(ip)).status).toBe(401);
    const limited = await attempt(ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ code: "TOO_MANY_REQUESTS", message: "Too many attempts from your network. Try again later." });
    expect((await attempt(freshIp(), "someone-else@example.com")).status).toBe(401);
    // Ten wrong passwords for the account, the default --password-failure-limit: from any IP, and with the
    // right password too, its sign-ins are 429 for the next 15 minutes.
    for (const password of ["wrong password", "a long password"]) {
      const locked = await call("/api/auth/sign-in/email", { body: { email: "journey@example.com", password }, ip: freshIp() });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(60);
      expect(await locked.json()).toEqual({ code: "TOO_MANY_REQUESTS", message: "Too many wrong passwords for this account. Try again later." });
    }
  });

  test("bad bodies are 4xx JSON, never 5xx", async () => {
    const cases: [string, Record<string, string>, string][] = [
      ["not JSON", { "content-type": "application/json" }, "{{{"],
      ["wrong types", { "content-type": "application/json" }, JSON.stringify({ email: [], password: {}, name: 1 })],
      ["missing fields", { "content-type": "application/json" }, "{}"],
      ["1 MiB", { "content-type": "application/json" }, JSON.stringify({ email: "x".repeat(1 << 20), password: "p", name: "n" })],
      ["10 kB e-mail", { "content-type": "application/json" }, JSON.stringify({ email: `${"e".repeat(10_000)}@x.io`, password: "password1", name: "n" })],
      ["form encoded", { "content-type": "application/x-www-form-urlencoded" }, "email=a&password=b"],
    ];
    for (const [label, headers, body] of cases) {
      const response = await fetch(`${server.url}/api/auth/sign-up/email`, { method: "POST", headers: { ...headers, "cf-connecting-ip": freshIp() }, body });
      expect([label, response.status >= 400 && response.status < 500]).toEqual([label, true]);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const error = (await response.json()) as any;
      expect(Object.keys(error).sort()).toEqual(["code", "message"]);
    }
  });

  test("the state database holds no session token, no plaintext key, and argon2id hashes", async () => {
    const ips = [freshIp(), freshIp()] as const;
    const signedUp = await call("/api/auth/sign-up/email", { body: { email: "secrets@example.com", password: "secret password", name: "S" }, ip: ips[0] });
    const { token } = (await signedUp.json()) as any;
    const { key } = (await (await call("/v1/keys", { body: { name: "k" }, cookie: sessionCookie(signedUp), ip: ips[1] })).json()) as any;
    const db = new Database(join(server.cwd, "data", "state.sqlite"), { readonly: true });
    try {
      const everything = JSON.stringify([
        db.query("SELECT * FROM users").all(),
        db.query("SELECT * FROM sessions").all(),
        db.query("SELECT * FROM api_keys").all(),
      ]);
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(key);
      expect(everything).not.toContain("secret password");
      const hash = db.query<{ password_hash: string }, []>("SELECT password_hash FROM users WHERE email = 'secrets@example.com'").get()!;
      expect(hash.password_hash.startsWith("$argon2id$")).toBe(true);
    } finally {
      db.close();
    }
    // Once both requests that carried the secrets are logged (each worker writes its own lines, in batches).
    const log = (await server.stdoutLines((entries) => ips.every((ip) => entries.some((entry) => entry.ip === ip)))).join("\n");
    for (const secret of [token, key, "secret password", "foodapi.session_token"]) expect(log).not.toContain(secret);
  });
});
