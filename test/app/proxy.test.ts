import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../helpers/binary";
import { caddy, nginx, proxyInstalled, requestFrom, type RunningProxy, startProxy } from "../helpers/proxies";

/**
 * The reverse-proxy examples in deploy/ (test/helpers/proxies.ts) in front of the binary on loopback.
 * Clients are told apart by their source address (127.0.0.2, 127.0.0.3, ...: all of 127.0.0.0/8 is
 * loopback on Linux), as the proxy sees them.
 */
/**
 * A failing sign-in sent from `source` through the proxy, with `headers` as the client's own extra headers.
 * Each source tries an e-mail of its own, so that only the per-IP limit is at play, not the per-account one.
 */
const signIn = (proxyUrl: string, source: string, headers: Record<string, string> = {}) =>
  requestFrom(proxyUrl, source, "POST", "/api/auth/sign-in/email", { headers, json: { email: `nobody-${source}@example.com`, password: "not the password" } });

describe.each([
  ["nginx", nginx],
  ["Caddy", caddy],
] as const)("foodapi behind %s as in deploy/", (_name, proxy) => {
  if (!proxyInstalled(proxy, test)) return;

  const dir = mkdtempSync(join(tmpdir(), `foodapi-proxy-${proxy.name.toLowerCase()}-`));
  let server: RunningServer | undefined;
  let running: RunningProxy | undefined;
  let proxyUrl = "";

  beforeAll(async () => {
    server = await startServer({ args: ["--client-ip-header", "x-real-ip", "--auth-limit", "10/1m", "--workers", "1"] });
    running = await startProxy(proxy, dir, [Number(new URL(server.url).port)]);
    proxyUrl = running.url;
  });

  // Both stopped whatever the tests did: the proxy first, so that nothing reaches a stopping server.
  afterAll(async () => {
    await running?.stop();
    if (server && server.process.exitCode === null) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the 11th sign-in from one client IP is 429 while another client IP is still served", async () => {
    for (let i = 1; i <= 10; i++) expect((await signIn(proxyUrl, "127.0.0.2")).status).toBe(401);
    const eleventh = await signIn(proxyUrl, "127.0.0.2");
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await signIn(proxyUrl, "127.0.0.3")).status).toBe(401);
  });

  test("a client-IP header the client sends is overwritten: a fresh spoofed value each time does not escape the limit", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++) {
      const spoofed = `203.0.113.${i}`;
      const response = await signIn(proxyUrl, "127.0.0.4", { "X-Real-IP": spoofed, "CF-Connecting-IP": spoofed, "X-Forwarded-For": spoofed });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);

    // foodapi logs the client IP it counted: the real source address, never a value the client chose.
    const fromFourth = (entry: Record<string, any>) => entry.path === "/api/auth/sign-in/email" && entry.ip === "127.0.0.4";
    const logged = await server!.stdoutLines((entries) => entries.filter(fromFourth).length >= 11);
    const signIns = logged.map((line) => JSON.parse(line)).filter((entry) => entry.path === "/api/auth/sign-in/email");
    const ips = new Set(signIns.map((entry) => entry.ip));
    expect([...ips].sort()).toEqual(["127.0.0.2", "127.0.0.3", "127.0.0.4"]);
    expect(signIns.filter((entry) => entry.ip === "127.0.0.4")).toHaveLength(11);
  });
});
