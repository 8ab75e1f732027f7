import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnListening } from "../../test/helpers/listening";
import { ROOT } from "../../test/helpers/paths";
import { pollUntil } from "../../test/helpers/wait";
import { cleanEnv, stopProcessTree, tempDir, track } from "./processes";
import { HOST, SERVER_LIMIT_FLAGS, START_LIMIT_MS } from "./settings";
import type { ProbeWay } from "./syscall-probe";

/** foodapi or a ceiling server, started for one measurement. */
export interface Server {
  url: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

const BUN = join(ROOT, "node_modules/.bin/bun");

/**
 * The cache directory of every measured start but the first starts: the bench's own, not the default under
 * HOME, which other builds on the same machine share; and one per binary, for the same reason: a build
 * removes the catalog another build expanded there, so two builds compared in one run (an A/B) would each
 * expand it again at every start, which the start's time and its VmHWM would then carry.
 */
const cacheDirs = new Map<string, string>();
export function benchCacheDir(binary: string): string {
  const key = resolve(binary);
  let dir = cacheDirs.get(key);
  if (dir === undefined) cacheDirs.set(key, (dir = tempDir("foodapi-bench-cache-")));
  return dir;
}

/**
 * Spawns a process whose stderr announces "listening on http://..." and waits for that line (START_LIMIT_MS at
 * most: the first server of a run with a fresh cache directory expands the catalog first).
 */
async function startListening(cmd: string[], what: string) {
  // stdout ignored: an access log read under load would cost this process (and the measurement) CPU.
  return spawnListening(cmd, { cwd: tmpdir(), env: cleanEnv(), stdout: "ignore", timeoutMs: START_LIMIT_MS, what, track });
}

async function waitHealthy(url: string, timeoutMs = 10_000) {
  await pollUntil(async () => ((await fetch(`${url}/healthz`).catch(() => undefined))?.status === 200 ? true : undefined), {
    ms: timeoutMs,
    what: `${url}/healthz answering 200`,
  });
}

/** PostgreSQL and Redis for the state and the counters (`--state-url`, `--redis-url`), instead of SQLite in the data directory. */
export interface StoreUrls {
  stateUrl: string;
  redisUrl: string;
}

let keysMade = 0;

/** A key made by `foodapi keys create` in the data directory, or in PostgreSQL (each for an account of its own). */
function createKey(binary: string, dataDir: string, stores?: StoreUrls): string {
  const where = stores ? ["--state-url", stores.stateUrl] : ["--data-dir", dataDir];
  const email = stores ? `bench-${++keysMade}@example.com` : "bench@example.com";
  const result = Bun.spawnSync([binary, "keys", "create", "--email", email, "--name", "bench", ...where], {
    cwd: tmpdir(),
    env: cleanEnv(),
    stdout: "pipe",
    stderr: "pipe",
    timeout: 30_000,
  });
  const key = result.stdout.toString().trim();
  if (result.exitCode !== 0 || !key.startsWith("fnk_")) throw new Error(`keys create failed (exit ${result.exitCode}): ${result.stderr.toString()}`);
  return key;
}

/**
 * `foodapi serve` on a fresh data directory (with a key in it), the bench's cache directory and limits no load
 * reaches. With `stores`, the state and the counters are in that PostgreSQL and Redis instead, and the key
 * (a fresh one, unless `stores.key` names one to share) is made there.
 */
export async function startFoodapi(binary: string, extraArgs: string[] = [], stores?: StoreUrls & { key?: string }): Promise<Server & { key: string }> {
  const dataDir = tempDir("foodapi-bench-data-");
  const key = stores?.key ?? createKey(binary, dataDir, stores);
  const storeArgs = stores ? ["--state-url", stores.stateUrl, "--redis-url", stores.redisUrl] : [];
  const { child, url } = await startListening(
    [binary, "serve", "--host", HOST, "--port", "0", "--data-dir", dataDir, "--cache-dir", benchCacheDir(binary), ...SERVER_LIMIT_FLAGS, ...storeArgs, ...extraArgs],
    `foodapi serve ${extraArgs.join(" ")}${stores ? " (PostgreSQL + Redis)" : ""}`.trim(),
  );
  await waitHealthy(url);
  return { url, pid: child.pid, dataDir, key, stop: () => stopProcessTree(child) };
}

/** bench/ceiling.ts answering every request with a fixed JSON body of `bytes`. */
export async function startCeiling(bytes: number): Promise<Server> {
  const { child, url } = await startListening([BUN, join(ROOT, "bench/ceiling.ts"), String(bytes)], `ceiling (${bytes} bytes)`);
  return { url, pid: child.pid, dataDir: "", stop: () => stopProcessTree(child) };
}

/**
 * Runs `measure` on a fresh foodapi server and data directory (no state left by the one before; with
 * `stores`, a fresh key in the shared PostgreSQL and Redis), then stops it.
 */
export async function onServer<M>(binary: string, extraArgs: string[], measure: (server: Server & { key: string }) => Promise<M>, stores?: StoreUrls): Promise<M> {
  const server = await startFoodapi(binary, extraArgs, stores);
  try {
    return await measure(server);
  } finally {
    await server.stop();
  }
}

/**
 * Runs `measure` on `count` fresh foodapi servers on ports of their own, sharing `stores` (one PostgreSQL and
 * one Redis) and one key, as instances behind a load balancer do; then stops them.
 */
export async function onServers<M>(
  binary: string,
  count: number,
  extraArgs: string[],
  stores: StoreUrls,
  measure: (servers: (Server & { key: string })[]) => Promise<M>,
): Promise<M> {
  const first = await startFoodapi(binary, extraArgs, stores);
  const servers = [first];
  try {
    for (let i = 1; i < count; i++) servers.push(await startFoodapi(binary, extraArgs, { ...stores, key: first.key }));
    return await measure(servers);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

function freePort(): number {
  const listener = Bun.listen({ hostname: HOST, port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/** What an Elysia route answers once composed: public, no state read (`serve` composes them after its start). */
const EVERY_ROUTE_PATH = "/v1/meta";

/**
 * Exec to the first 200 on /healthz, polled every 2 ms (START_LIMIT_MS at most), in `dataDir`: a fresh one
 * unless given (a restart reopens the state it made before). /healthz is a direct route, answered as soon
 * as the data routes are; `everyRouteMs` is exec to the first 200 on a route Elysia answers, asked right
 * after, which `serve` composes once it answers (design §18): when every route answers.
 */
export async function coldStartTimes(binary: string, extraArgs: string[], dataDir = tempDir("foodapi-bench-cold-")): Promise<{ ms: number; everyRouteMs: number }> {
  const port = freePort();
  const started = performance.now();
  const child = track(Bun.spawn([binary, "serve", "--host", HOST, "--port", String(port), "--data-dir", dataDir, ...extraArgs], { cwd: tmpdir(), env: cleanEnv(), stdin: "ignore", stdout: "ignore", stderr: "ignore" }));
  // The first 200 is what is timed: polled, as a client would find it.
  const firstOk = async (path: string): Promise<number> => {
    while (performance.now() - started < START_LIMIT_MS) {
      try {
        const response = await fetch(`http://${HOST}:${port}${path}`);
        if (response.status === 200) return performance.now() - started;
      } catch {}
      if (child.exitCode !== null) throw new Error(`start: server exited with ${child.exitCode} (serve ${extraArgs.join(" ")})`);
      await Bun.sleep(2);
    }
    throw new Error(`start: no 200 on ${path} within ${START_LIMIT_MS / 1000} s (serve ${extraArgs.join(" ")})`);
  };
  try {
    const ms = await firstOk("/healthz");
    return { ms, everyRouteMs: await firstOk(EVERY_ROUTE_PATH) };
  } finally {
    await stopProcessTree(child);
  }
}

/**
 * bench/start-ceiling.ts compiled as build.sh compiles foodapi (ESM split into chunks, with its bytecode, minified),
 * into a temporary directory: a binary `coldStartTimes` can time like foodapi's, for the start's ceiling.
 */
export function compileStartCeiling(): string {
  const outfile = join(tempDir("foodapi-bench-start-ceiling-"), "start-ceiling");
  const built = Bun.spawnSync([BUN, "build", join(ROOT, "bench/start-ceiling.ts"), "--compile", "--minify", "--bytecode", "--format=esm", "--splitting", "--outfile", outfile], {
    cwd: ROOT,
    stdout: "ignore",
    stderr: "pipe",
  });
  if (built.exitCode !== 0) throw new Error(`start ceiling: bun build failed: ${built.stderr.toString().trim()}`);
  return outfile;
}

/** The same, to the first 200 on /healthz alone. */
export async function coldStartMs(binary: string, extraArgs: string[], dataDir?: string): Promise<number> {
  return (await coldStartTimes(binary, extraArgs, dataDir)).ms;
}

/** bench/syscall-server.ts sending the bodies in `dir` (bench/lib/syscall-probe.ts) the way `way` says. */
export async function startSyscallServer(way: ProbeWay, dir: string): Promise<Server> {
  const { child, url } = await startListening([BUN, join(ROOT, "bench/syscall-server.ts"), way, dir], `syscall-server (${way})`);
  return { url, pid: child.pid, dataDir: "", stop: () => stopProcessTree(child) };
}

/** bench/floor.ts serving the prepared answers in `answersDir` (bench/lib/floor-answers.ts), accepting `key`. */
export async function startFloor(answersDir: string, key: string): Promise<Server & { key: string }> {
  const { child, url } = await startListening([BUN, join(ROOT, "bench/floor.ts"), answersDir], "floor");
  return { url, pid: child.pid, dataDir: "", key, stop: () => stopProcessTree(child) };
}
