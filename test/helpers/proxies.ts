import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { expect } from "bun:test";
import type { Subprocess } from "bun";
import { rawHttp } from "./raw-http";
import { pollUntil, readStream, within } from "./wait";

/**
 * The reverse-proxy examples in deploy/, run as they are (only their addresses and ports replaced) in
 * Debian's nginx and Caddy: test/app/proxy.test.ts puts one in front of one binary, and
 * test/app/multi-instance-proxy.test.ts in front of two, as docs/deployment.md's "Several machines" shows.
 */
const DEPLOY = join(import.meta.dir, "..", "..", "deploy");

export interface Proxy {
  readonly name: string;
  readonly executable: string;
  /** Starts the proxy on `port` in front of foodapi on each of `upstreamPorts` (its load balancing). */
  start(dir: string, port: number, upstreamPorts: readonly number[]): Subprocess;
}

export const nginx: Proxy = {
  name: "nginx",
  executable: "/usr/sbin/nginx",
  start(dir, port, upstreamPorts) {
    // One `server` line per instance in the upstream block, as docs/deployment.md's two-instance example says.
    const servers = upstreamPorts.map((upstream) => `server 127.0.0.1:${upstream};`).join("\n    ");
    const site = readFileSync(join(DEPLOY, "nginx.conf"), "utf8")
      .replace("server 127.0.0.1:3000;", servers)
      .replace("listen 80;", `listen 127.0.0.1:${port};`)
      .replace("listen [::]:80;", "");
    for (const upstream of upstreamPorts) expect(site).toContain(`server 127.0.0.1:${upstream};`);
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

export const caddy: Proxy = {
  name: "Caddy",
  executable: "/usr/bin/caddy",
  start(dir, port, upstreamPorts) {
    // Several upstreams on one reverse_proxy line, as docs/deployment.md's two-instance example says.
    // With several, in turn (`lb_policy round_robin`), as that example says: Caddy's default picks one at
    // random, and eleven sign-in attempts all went to one instance once in a thousand runs.
    const upstreams = upstreamPorts.map((upstream) => `127.0.0.1:${upstream}`).join(" ");
    const reverseProxy = upstreamPorts.length > 1 ? `reverse_proxy ${upstreams} {\n\t\tlb_policy round_robin` : `reverse_proxy ${upstreams} {`;
    const site = readFileSync(join(DEPLOY, "Caddyfile"), "utf8")
      .replace("food.example.org {", `http://127.0.0.1:${port} {`)
      .replace("reverse_proxy 127.0.0.1:3000 {", reverseProxy);
    expect(site).toContain(`http://127.0.0.1:${port} {`);
    expect(site).toContain(reverseProxy);
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


export interface RunningProxy {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts `proxy` on a free loopback port in front of `upstreamPorts` and waits until foodapi's /healthz
 * answers through it (neither proxy announces that it listens).
 */
export async function startProxy(proxy: Proxy, dir: string, upstreamPorts: readonly number[]): Promise<RunningProxy> {
  const port = await freePort();
  const started = proxy.start(dir, port, upstreamPorts);
  const stderr = readStream(started.stderr as ReadableStream<Uint8Array>);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (started.exitCode !== null) return;
    started.kill("SIGTERM");
    const stopped = await within(started.exited, 5000, `${proxy.name} stopping on SIGTERM`).then(() => true, () => false);
    if (!stopped) started.kill("SIGKILL");
  };
  try {
    await pollUntil(
      async () => {
        if (started.exitCode !== null) throw new Error(`${proxy.name} exited with ${started.exitCode}: ${stderr.text()}`);
        const health = await rawHttp(url, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`).catch(() => undefined);
        return health?.status === 200 ? true : undefined;
      },
      { ms: 10_000, intervalMs: 50, what: () => `${proxy.name} answering /healthz on ${url} (its stderr: ${stderr.text()})` },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/**
 * Whether `proxy` can run here. CI installs both proxies (.ci/run): there a missing one is a failing test,
 * elsewhere a warning and a skip.
 */
export function proxyInstalled(proxy: Proxy, test: (name: string, run: () => void) => void): boolean {
  if (Bun.spawnSync(["test", "-x", proxy.executable]).exitCode === 0) return true;
  if (process.env.CI) {
    test(`${proxy.name} is installed`, () => {
      throw new Error(`${proxy.executable} is missing: .ci/run should have installed it`);
    });
  } else console.warn(`skipped: ${proxy.executable} is not installed (.ci/run installs it)`);
  return false;
}

/**
 * One request through a proxy from the source address `source` (a client the proxy tells apart), on its
 * own connection so that the proxy balances each one afresh.
 */
export function requestFrom(
  url: string,
  source: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; json?: unknown } = {},
) {
  const body = options.json === undefined ? "" : JSON.stringify(options.json);
  const headers: Record<string, string> = {
    Host: new URL(url).host,
    ...(options.json === undefined ? {} : { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) }),
    ...options.headers,
    Connection: "close",
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return rawHttp(url, `${method} ${path} HTTP/1.1\r\n${head}\r\n${body}`, 10_000, source);
}
