import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../helpers/binary";
import { caddy, nginx, proxyInstalled, requestFrom, type RunningProxy, startProxy } from "../helpers/proxies";

/**
 * The reverse-proxy examples in deploy/ (test/helpers/proxies.ts) in front of the binary on loopback,
 * started as the README's Install shows: `serve` with no client-IP setting, so on the default header, which
 * the examples set. Clients are told apart by their source address (127.0.0.2, 127.0.0.3, ...: all of
 * 127.0.0.0/8 is loopback on Linux), as the proxy sees them.
 */

/** What the missing-header warning line says, whichever header it names. */
const MISSING_HEADER_WARNING = "set --client-ip-header (FOODAPI_CLIENT_IP_HEADER)";

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
    // No flag beyond the address (startServer's loopback and free port): the default client-IP header and
    // sign-in limit (10/1m), one worker per core.
    server = await startServer();
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

  // Last: it stops both, so that the server's whole stderr is read.
  test("the example sends the header foodapi reads by default: no missing-header warning", async () => {
    await running!.stop();
    expect(await server!.stop()).toBe(0);
    expect(server!.stderr()).toContain("listening on");
    expect(server!.stderr()).not.toContain(MISSING_HEADER_WARNING);
  });
});

/**
 * A proxy that sends X-Forwarded-For or X-Real-IP but not the header foodapi reads (the default here):
 * every client would share the proxy's address. Each request below comes as from such a proxy.
 */
describe.each(["X-Forwarded-For", "X-Real-IP"])("a proxy that sends %s but not the header read", (seen) => {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({ args: ["--workers", "1"] });
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) await server.stop();
  });

  test("is warned about once, naming the setting and the header seen, never its value", async () => {
    const fromProxy = () => fetch(`${server!.url}/v1/meta`, { headers: { [seen]: "198.51.100.7" } });
    for (let i = 0; i < 5; i++) expect((await fromProxy()).status).toBe(200);
    const line = (await server!.waitForStderr(/^.*set --client-ip-header \(FOODAPI_CLIENT_IP_HEADER\).*$/m))[0];
    for (let i = 0; i < 5; i++) expect((await fromProxy()).status).toBe(200);
    // Stopped, so that its whole stderr is read.
    expect(await server!.stop()).toBe(0);
    const stderr = server!.stderr();
    expect(stderr.split(MISSING_HEADER_WARNING)).toHaveLength(2);
    const warning = JSON.parse(line) as Record<string, string>;
    expect(warning.level).toBe("warn");
    expect(warning.message).toContain(seen);
    expect(warning.message).toContain("cf-connecting-ip");
    expect(stderr).not.toContain("198.51.100.7");
  });
});
