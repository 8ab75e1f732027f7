import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { type RunningServer, startServer } from "./helpers/binary";
import { rawHttp } from "./helpers/raw-http";
import { pollUntil, readStream, within } from "./helpers/wait";

/**
 * The reverse-proxy examples in deploy/, run as they are (only their addresses and ports replaced) in
 * Debian's nginx and Caddy in front of the binary on loopback. Clients are told apart by their source
 * address (127.0.0.2, 127.0.0.3, ...: all of 127.0.0.0/8 is loopback on Linux), as the proxy sees them.
 * CI installs both proxies (.ci/run); elsewhere a missing one is skipped with a warning.
 */
const DEPLOY = join(import.meta.dir, "..", "deploy");

interface Proxy {
  readonly name: string;
  readonly executable: string;
  /** Starts the proxy on `port` in front of foodapi on `upstreamPort`; resolves once it is started. */
  start(dir: string, port: number, upstreamPort: number): Subprocess;
}

const nginx: Proxy = {
  name: "nginx",
  executable: "/usr/sbin/nginx",
  start(dir, port, upstreamPort) {
    const site = readFileSync(join(DEPLOY, "nginx.conf"), "utf8")
      .replace("server 127.0.0.1:3000;", `server 127.0.0.1:${upstreamPort};`)
      .replace("listen 80;", `listen 127.0.0.1:${port};`)
      .replace("listen [::]:80;", "");
    expect(site).toContain(`127.0.0.1:${upstreamPort}`);
    expect(site).toContain(`listen 127.0.0.1:${port};`);
    writeFileSync(join(dir, "site.conf"), site);
    // The rest of what Debian's /etc/nginx/nginx.conf would give, with every path in the temporary directory.
    for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, temp));
    writeFileSync(
      join(dir, "nginx.conf"),
      `worker_processes 1;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
    );
    return Bun.spawn(
      [this.executable, "-p", dir, "-e", join(dir, "error.log"), "-c", join(dir, "nginx.conf"), "-g", `daemon off; pid ${dir}/nginx.pid;`],
      { stdin: "ignore", stdout: "ignore", stderr: "pipe" },
    );
  },
};

const caddy: Proxy = {
  name: "Caddy",
  executable: "/usr/bin/caddy",
  start(dir, port, upstreamPort) {
    const site = readFileSync(join(DEPLOY, "Caddyfile"), "utf8")
      .replace("food.example.org {", `http://127.0.0.1:${port} {`)
      .replace("reverse_proxy 127.0.0.1:3000 {", `reverse_proxy 127.0.0.1:${upstreamPort} {`);
    expect(site).toContain(`http://127.0.0.1:${port} {`);
    expect(site).toContain(`reverse_proxy 127.0.0.1:${upstreamPort} {`);
    // No admin endpoint and no certificates: nothing but the site block listens.
    writeFileSync(join(dir, "Caddyfile"), `{\n\tadmin off\n\tauto_https off\n}\n\n${site}`);
    return Bun.spawn([this.executable, "run", "--adapter", "caddyfile", "--config", join(dir, "Caddyfile")], {
      // Caddy keeps its state under $HOME / XDG directories: the temporary directory here.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
  },
};

/** A free loopback port: bound on port 0 and released at once for the proxy to take. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const signInBody = JSON.stringify({ email: "nobody@example.com", password: "not the password" });

/** A sign-in sent from `source` through the proxy, with `headers` as the client's own extra headers. */
function signIn(proxyUrl: string, source: string, headers: Record<string, string> = {}) {
  const host = new URL(proxyUrl).host;
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  const request =
    `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(signInBody)}\r\n${extra}Connection: close\r\n\r\n${signInBody}`;
  return rawHttp(proxyUrl, request, 10_000, source);
}

describe.each([
  ["nginx", nginx],
  ["Caddy", caddy],
] as const)("foodapi behind %s as in deploy/", (_name, proxy) => {
  const installed = Bun.spawnSync(["test", "-x", proxy.executable]).exitCode === 0;
  if (!installed) {
    // CI installs both proxies: there, a missing one is a failure, not a skip.
    if (process.env.CI) {
      test(`${proxy.name} is installed`, () => {
        throw new Error(`${proxy.executable} is missing: .ci/run should have installed it`);
      });
    }
    else console.warn(`skipped: ${proxy.executable} is not installed (.ci/run installs it)`);
    return;
  }

  const dir = mkdtempSync(join(tmpdir(), `foodapi-proxy-${proxy.name.toLowerCase()}-`));
  let server: RunningServer | undefined;
  let proxyProcess: Subprocess | undefined;
  let proxyUrl = "";

  beforeAll(async () => {
    server = await startServer({ args: ["--client-ip-header", "x-real-ip", "--auth-limit", "10/1m", "--workers", "1"] });
    const port = await freePort();
    const started = proxy.start(dir, port, Number(new URL(server.url).port));
    proxyProcess = started;
    const stderr = readStream(started.stderr as ReadableStream<Uint8Array>);
    proxyUrl = `http://127.0.0.1:${port}`;
    // Neither proxy announces that it listens: the event is foodapi's /healthz answering through it.
    await pollUntil(
      async () => {
        if (started.exitCode !== null) throw new Error(`${proxy.name} exited with ${started.exitCode}: ${stderr.text()}`);
        const health = await rawHttp(proxyUrl, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`).catch(() => undefined);
        return health?.status === 200 ? true : undefined;
      },
      { ms: 10_000, intervalMs: 50, what: () => `${proxy.name} answering /healthz on ${proxyUrl} (its stderr: ${stderr.text()})` },
    );
  });

  // Both stopped whatever the tests did: the proxy first, so that nothing reaches a stopping server.
  afterAll(async () => {
    if (proxyProcess && proxyProcess.exitCode === null) {
      proxyProcess.kill("SIGTERM");
      const stopped = await within(proxyProcess.exited, 5000, `${proxy.name} stopping on SIGTERM`).then(() => true, () => false);
      if (!stopped) proxyProcess.kill("SIGKILL");
    }
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
