import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../helpers/binary";
import { jsonPost, sessionCookie } from "../helpers/http";
import { caddy, nginx, proxyInstalled, requestFrom, type RunningProxy, startProxy } from "../helpers/proxies";
import { postgresMissing, redisMissing, type StoreServer, startPostgres, startRedis } from "../helpers/store-servers";

/**
 * docs/deployment.md's "Several machines" example as written: two compiled binaries on two ports sharing one
 * PostgreSQL and one Redis, with the same settings, behind deploy/nginx.conf (one `server` line per
 * instance) and deploy/Caddyfile (both upstreams on `reverse_proxy`). A client sees one service: its
 * account, its key and its limits hold whichever instance the proxy picks.
 */
const missing = postgresMissing() ?? redisMissing();
if (missing) console.error(`skipping the two-instances-behind-a-proxy tests: ${missing}`);

let postgres: StoreServer;
let redis: StoreServer;
let a: RunningServer;
let b: RunningServer;

describe.skipIf(missing !== undefined)("two instances behind one proxy, as docs/deployment.md shows", () => {
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    const env = {
      FOODAPI_STATE_URL: postgres.url,
      FOODAPI_REDIS_URL: redis.url,
      FOODAPI_FREE_LIMIT: "20/1m",
      FOODAPI_AUTH_LIMIT: "10/1m",
    };
    [a, b] = await Promise.all([startServer({ env, args: ["--workers", "1"] }), startServer({ env, args: ["--workers", "1"] })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  /** How many access-log entries from `source` on `path` each instance has, once they add up to `total`. */
  async function servedBy(source: string, path: string, total: number) {
    const count = (entries: Record<string, any>[]) => entries.filter((entry) => entry.ip === source && entry.path === path).length;
    let onA = 0;
    let onB = 0;
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      // Each instance's log is written in batches shortly after its answers: read both until they add up.
      const logged = async (server: RunningServer) => count((await server.stdoutLines(() => true)).map((line) => JSON.parse(line)));
      [onA, onB] = await Promise.all([logged(a), logged(b)]);
      if (onA + onB >= total) break;
      await Bun.sleep(50);
    }
    return { onA, onB };
  }

  describe.each([
    ["nginx", nginx, "127.0.0.21"],
    ["Caddy", caddy, "127.0.0.31"],
  ] as const)("behind %s", (name, proxy, client) => {
    if (!proxyInstalled(proxy, test)) return;
    const dir = mkdtempSync(join(tmpdir(), `foodapi-two-behind-${name.toLowerCase()}-`));
    let running: RunningProxy | undefined;
    beforeAll(async () => {
      running = await startProxy(proxy, dir, [a, b].map((server) => Number(new URL(server.url).port)));
    });
    afterAll(async () => {
      await running?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    test("requests are spread over both instances", async () => {
      for (let i = 0; i < 20; i++) expect((await requestFrom(running!.url, client, "GET", "/v1/meta")).status).toBe(200);
      const { onA, onB } = await servedBy(client, "/v1/meta", 20);
      expect(onA + onB).toBe(20);
      expect(onA).toBeGreaterThan(0);
      expect(onB).toBeGreaterThan(0);
    });

    test("an account, its key, the key's 20/1m limit and its revocation hold across both", async () => {
      const url = running!.url;
      const email = `behind-${name.toLowerCase()}@example.com`;
      const signUp = await fetch(`${url}/api/auth/sign-up/email`, jsonPost({ email, password: "password123", name }));
      expect(signUp.status).toBe(200);
      const cookie = sessionCookie(signUp);
      const issued = await fetch(`${url}/v1/keys`, jsonPost({ name: "behind a proxy" }, { cookie }));
      expect(issued.status).toBe(201);
      const { id, key } = (await issued.json()) as { id: string; key: string };

      const statuses: number[] = [];
      for (let round = 0; round < 3; round++) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => requestFrom(url, client, "GET", "/v1/food-groups", { headers: { "X-API-Key": key } })));
        statuses.push(...batch.map((response) => response.status));
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(20);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      const { onA, onB } = await servedBy(client, "/v1/food-groups", 30);
      expect(onA).toBeGreaterThan(0);
      expect(onB).toBeGreaterThan(0);

      expect((await fetch(`${url}/v1/keys/${id}`, { method: "DELETE", headers: { cookie } })).status).toBe(204);
      // Whichever instance answers next, the key is gone: the revocation travelled by Redis.
      const after = await Promise.all(Array.from({ length: 4 }, () => requestFrom(url, client, "GET", "/v1/food-groups", { headers: { "X-API-Key": key } })));
      expect(after.map((response) => response.status)).toEqual([401, 401, 401, 401]);
    });

    test("sign-in attempts from one client IP are counted across both: the 11th is 429, another client is still served", async () => {
      const source = client.replace(/1$/, "2");
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const attempt = await requestFrom(running!.url, source, "POST", "/api/auth/sign-in/email", { json: { email: `nobody-${source}@example.com`, password: "not the password" } });
        statuses.push(attempt.status);
      }
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
      const other = client.replace(/1$/, "3");
      const elsewhere = await requestFrom(running!.url, other, "POST", "/api/auth/sign-in/email", { json: { email: `nobody-${other}@example.com`, password: "not the password" } });
      expect(elsewhere.status).toBe(401);
      const { onA, onB } = await servedBy(source, "/api/auth/sign-in/email", 11);
      expect(onA).toBeGreaterThan(0);
      expect(onB).toBeGreaterThan(0);
    });
  });
});
