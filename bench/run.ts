/**
 * bench/run: what one small machine can serve, against the physical ceiling measured on the same machine in
 * the same run. Started by `bench/run` (which builds dist/foodapi first unless BENCH_SKIP_BUILD=1).
 *
 * 1. Copies dist/foodapi to a temporary directory (a concurrent rebuild cannot change it mid-run), records its
 *    size and which optional flags `help` lists (`--workers`, `--trial-requests`).
 * 2. Start times, exec to the first 200 on /healthz, fresh data directory each time, median of 5: first start
 *    (a fresh --cache-dir each time: the embedded catalog is expanded into it), then later starts ("cold
 *    start", the default cache directory, where one unmeasured start expanded it).
 * 3. SR28 import time: bench/import (median of BENCH_IMPORT_RUNS, default 3).
 * 4. Typical response sizes from a running server, then one ceiling per workload (bench/ceiling.ts) with a body
 *    of that size, driven by the same wrk client as the workload (path, key header, Lua script).
 * 5. Workloads with wrk (-t2 -c64 --latency), each on a fresh server and data directory: /healthz, repeated
 *    search, a 1,000-query mix and random food details (both bench/paths.lua over generated path lists), search with a trial
 *    token; then search, mix and detail again with `--workers 2` when the binary has that flag.
 * Prints a table and writes bench/results.json. Exit 0 whether or not targets are met; non-zero when the
 * harness itself fails (a server does not start, wrk is missing and cannot be installed, wrk fails).
 *
 * Settings: BENCH_SECONDS (10 per workload), BENCH_WARMUP_SECONDS (2, unmeasured, before each), BENCH_IMPORT_RUNS (3),
 * BENCH_BINARY (dist/foodapi).
 * Loopback only; every load is bounded by wrk's duration and a hard timeout.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { solveChallenge, type Challenge } from "altcha-lib";
import { openSr28Source } from "../src/catalog/import/source";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

const ROOT = resolve(import.meta.dir, "..");
const BUN = join(ROOT, "node_modules/.bin/bun");
const SR28_DIR = resolve(process.env.FOODAPI_SR28_DIR || join(ROOT, "data/sr28"));
const SECONDS = positive("BENCH_SECONDS", 10);
const WARMUP_SECONDS = nonNegative("BENCH_WARMUP_SECONDS", 2);
const IMPORT_RUNS = positive("BENCH_IMPORT_RUNS", 3);
const THREADS = 2;
const CONNECTIONS = 64;
const COLD_START_RUNS = 5;
const MIX_QUERIES = 1000;
const HOST = "127.0.0.1";
const SERVER_LIMIT_FLAGS = ["--free-limit", "100000000/1h", "--trial-ip-limit", "1000000/1h"];
const TARGETS = {
  searchRatio: 0.6,
  mixRatio: 0.3,
  detailRatio: 0.3,
  p99Factor: 2,
  coldStartMs: 50,
  /** A first start includes expanding the compressed catalog into the cache directory and rebuilding its detail answers. */
  firstStartMs: 1500,
  binaryMb: 120,
  importSeconds: 4,
  rssMbPerWorker: 150,
  /** An exhausted trial token is refused from memory: at least half the throughput of a cached search. */
  exhaustedTrialVsSearch: 0.5,
};

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}
function nonNegative(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0`);
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Process bookkeeping: everything started here is killed on exit, error or SIGINT/SIGTERM.

const children = new Set<Subprocess>();
const tempDirs: string[] = [];
let cleanedUp = false;

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/**
 * The cache directory of every measured start but the first starts: the bench's own, not the default under
 * HOME, which other builds on the same machine share (each removes the others' expanded catalogs).
 */
let cacheDir: string | undefined;
function benchCacheDir(): string {
  cacheDir ??= tempDir("foodapi-bench-cache-");
  return cacheDir;
}

function track<T extends Subprocess>(child: T): T {
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const child of children) {
    for (const pid of descendants(child.pid)) killPid(pid, "SIGKILL");
    try {
      child.kill("SIGKILL");
    } catch {}
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

function killPid(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {}
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\nbench: ${signal}, stopping every process started`);
    cleanup();
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------------------
// /proc: the process tree of a server and its memory.

/** Every live descendant of `root` (children, grandchildren...), from /proc/<pid>/stat's ppid field. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {}
  }
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

function memoryKb(pid: number): { rss: number; hwm: number; anon: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return { rss: field("VmRSS"), hwm: field("VmHWM"), anon: field("RssAnon") };
  } catch {
    return undefined;
  }
}

interface MemorySampler {
  stop(): MemoryReport;
}
interface MemoryReport {
  /** Largest sum of VmRSS over the whole process tree, sampled every 200 ms. */
  peakTotalRssMb: number;
  /** Largest VmHWM (lifetime peak RSS) of any one process of the tree: the per-worker figure. */
  peakRssPerProcessMb: number;
  /** Largest RssAnon of any one process (heap, not the file-backed pages of the mapped executable). */
  peakAnonRssPerProcessMb: number;
  processes: number;
}

/** Samples the process tree under `root` every 200 ms until stopped. */
function sampleMemory(root: number, withTree: boolean): MemorySampler {
  let peakTotal = 0;
  const hwm = new Map<number, number>();
  let peakAnon = 0;
  const sample = () => {
    const pids = withTree ? [root, ...descendants(root)] : [root];
    let total = 0;
    for (const pid of pids) {
      const memory = memoryKb(pid);
      if (!memory) continue;
      total += memory.rss;
      hwm.set(pid, Math.max(hwm.get(pid) ?? 0, memory.hwm, memory.rss));
      peakAnon = Math.max(peakAnon, memory.anon);
    }
    peakTotal = Math.max(peakTotal, total);
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return {
        peakTotalRssMb: round(peakTotal / 1024, 1),
        peakRssPerProcessMb: round(Math.max(0, ...hwm.values()) / 1024, 1),
        peakAnonRssPerProcessMb: round(peakAnon / 1024, 1),
        processes: hwm.size,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Servers.

interface Server {
  url: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...extra };
}

/** Spawns a process whose stderr announces "listening on http://..." and waits for that line (15 s at most). */
async function spawnListening(cmd: string[], what: string, env: Record<string, string>): Promise<{ child: Subprocess<"ignore", "ignore", "pipe">; url: string; stderr: () => string }> {
  const child = track(Bun.spawn(cmd, { cwd: tmpdir(), env, stdin: "ignore", stdout: "ignore", stderr: "pipe" }));
  let stderr = "";
  let announce: (url: string) => void = () => {};
  const announced = new Promise<string>((resolve) => (announce = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      // Keep only the tail: the pipe is drained for the whole run, so the server never blocks on it.
      stderr = (stderr + decoder.decode(chunk)).slice(-20_000);
      const url = /listening on (http:\/\/[^\s)]+)/.exec(stderr)?.[1];
      if (url) announce(url);
    }
  })();
  const url = await Promise.race([announced, child.exited.then(() => undefined), Bun.sleep(15_000).then(() => undefined)]);
  if (!url) {
    child.kill("SIGKILL");
    throw new Error(`${what} did not start (exit ${child.exitCode ?? "none"}): ${stderr.trim()}`);
  }
  return { child, url, stderr: () => stderr };
}

async function stopProcessTree(child: Subprocess) {
  const tree = descendants(child.pid);
  child.kill("SIGTERM");
  const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
  if (!exited) child.kill("SIGKILL");
  await child.exited;
  // Workers normally exit with their primary; anything left is killed by its recorded pid.
  for (const pid of tree) if (memoryKb(pid)) killPid(pid, "SIGKILL");
}

async function waitHealthy(url: string, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return;
    } catch {}
    await Bun.sleep(20);
  }
  throw new Error(`${url}/healthz never answered 200`);
}

function createKey(binary: string, dataDir: string): string {
  const result = Bun.spawnSync([binary, "keys", "create", "--email", "bench@example.com", "--name", "bench", "--data-dir", dataDir], {
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

async function startFoodapi(binary: string, extraArgs: string[] = []): Promise<Server & { key: string }> {
  const dataDir = tempDir("foodapi-bench-data-");
  const key = createKey(binary, dataDir);
  const { child, url } = await spawnListening(
    [binary, "serve", "--host", HOST, "--port", "0", "--data-dir", dataDir, "--cache-dir", benchCacheDir(), ...SERVER_LIMIT_FLAGS, ...extraArgs],
    `foodapi serve ${extraArgs.join(" ")}`.trim(),
    cleanEnv(),
  );
  await waitHealthy(url);
  return { url, pid: child.pid, dataDir, key, stop: () => stopProcessTree(child) };
}

async function startCeiling(bytes: number): Promise<Server> {
  const { child, url } = await spawnListening([BUN, join(ROOT, "bench/ceiling.ts"), String(bytes)], `ceiling (${bytes} bytes)`, cleanEnv());
  return { url, pid: child.pid, dataDir: "", stop: () => stopProcessTree(child) };
}

// ---------------------------------------------------------------------------------------------------------
// wrk.

interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
}

interface Measurement extends WrkResult, MemoryReport {
  label: string;
  url: string;
  bodyBytes?: number;
}

function ensureWrk(): string {
  let wrk = Bun.which("wrk");
  if (wrk) return wrk;
  console.error("bench: wrk is missing; installing it with apt-get (Debian package 'wrk')");
  const install = Bun.spawnSync(["bash", "-c", "apt-get update && apt-get install -y wrk"], { stdout: "inherit", stderr: "inherit", timeout: 300_000 });
  wrk = Bun.which("wrk");
  if (install.exitCode !== 0 || !wrk) throw new Error("wrk is missing and could not be installed (apt-get update && apt-get install -y wrk)");
  return wrk;
}

const toMs = (value: string, unit: string): number => {
  const n = Number(value);
  const factor: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return n * (factor[unit] ?? NaN);
};

function parseWrk(output: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1];
  const p50 = /^\s*50%\s+([\d.]+)(us|ms|s|m|h)\s*$/m.exec(output);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m|h)\s*$/m.exec(output);
  const requests = /(\d+) requests in/.exec(output)?.[1];
  if (!rps || !p50 || !p99 || !requests) throw new Error(`could not parse wrk output:\n${output}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSecond: round(Number(rps), 1),
    p50Ms: round(toMs(p50[1]!, p50[2]!), 3),
    p99Ms: round(toMs(p99[1]!, p99[2]!), 3),
    requests: Number(requests),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: {
      connect: Number(socket?.[1] ?? 0),
      read: Number(socket?.[2] ?? 0),
      write: Number(socket?.[3] ?? 0),
      timeout: Number(socket?.[4] ?? 0),
    },
  };
}

async function wrk(wrkPath: string, url: string, seconds: number, options: { script?: string; headers?: string[]; env?: Record<string, string> } = {}): Promise<{ output: string; result: WrkResult }> {
  const args = [wrkPath, `-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--timeout", "5s", "--latency"];
  if (options.script) args.push("-s", options.script);
  for (const header of options.headers ?? []) args.push("-H", header);
  args.push(url);
  const child = track(Bun.spawn(args, { env: cleanEnv(options.env), stdin: "ignore", stdout: "pipe", stderr: "pipe" }));
  const timer = setTimeout(() => child.kill("SIGKILL"), (seconds + 30) * 1000);
  const [output, errors, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`wrk failed (exit ${code}) on ${url}: ${errors}${output}`);
  return { output, result: parseWrk(output) };
}

/** A warm-up run (unmeasured), then the measured run while the server's memory is sampled. */
async function measure(wrkPath: string, label: string, server: Server, path: string, options: Parameters<typeof wrk>[3] & { tree?: boolean } = {}): Promise<Measurement> {
  const url = `${server.url}${path}`;
  process.stderr.write(`bench: ${label} ... `);
  if (WARMUP_SECONDS > 0) await wrk(wrkPath, url, WARMUP_SECONDS, options);
  const sampler = sampleMemory(server.pid, options.tree ?? true);
  let measured: Awaited<ReturnType<typeof wrk>> | undefined;
  let memory: MemoryReport;
  try {
    measured = await wrk(wrkPath, url, SECONDS, options);
  } finally {
    memory = sampler.stop();
  }
  const m: Measurement = { label, url: path, ...measured.result, ...memory };
  process.stderr.write(`${m.requestsPerSecond} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms${m.non2xx ? `, non-2xx ${m.non2xx}` : ""}\n`);
  return m;
}

// ---------------------------------------------------------------------------------------------------------
// Inputs from SR28: the 1,000-query mix and the shuffled food numbers.

interface Food {
  number: string;
  group: string;
  name: string;
}

function readFoods(): Food[] {
  const text = new TextDecoder("windows-1252").decode(openSr28Source(SR28_DIR).read("FOOD_DES.txt"));
  const foods: Food[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line) continue;
    const fields = line.split("^").map((field) => field.replace(/^~|~$/g, ""));
    if (fields[0] && fields[1] && fields[2]) foods.push({ number: fields[0], group: fields[1], name: fields[2] });
  }
  if (foods.length < 1000) throw new Error(`only ${foods.length} foods in FOOD_DES.txt of ${SR28_DIR}`);
  return foods;
}

/** mulberry32: a seeded generator, so every run sends the same queries in the same order. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STOP_WORDS = new Set(["and", "with", "without", "the", "for", "from", "not", "added", "all", "type", "other", "includes", "usda"]);

/** 1,000 distinct search paths: 1-2 words of one food's name, some with its group, some on page 2. */
function mixPaths(foods: Food[]): string[] {
  const random = rng(28);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const paths = new Set<string>();
  for (let attempt = 0; paths.size < MIX_QUERIES && attempt < 200_000; attempt++) {
    const food = pick(foods);
    const words = [...new Set(food.name.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3 && !STOP_WORDS.has(w)))];
    if (!words.length) continue;
    const first = pick(words);
    const terms = [first];
    if (random() < 0.4 && words.length > 1) terms.push(pick(words.filter((w) => w !== first)));
    let path = `/v1/foods?q=${encodeURIComponent(terms.join(" "))}`;
    if (random() < 0.25) path += `&group=${food.group}`;
    if (random() < 0.2) path += "&page=2";
    paths.add(path);
  }
  if (paths.size < MIX_QUERIES) throw new Error(`could only build ${paths.size} distinct queries`);
  return [...paths];
}

function shuffled<T>(xs: T[], seed: number): T[] {
  const random = rng(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Single figures: cold start, import, sizes, trial token.

function freePort(): number {
  const listener = Bun.listen({ hostname: HOST, port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/** Exec to the first 200 on /healthz, polled every 2 ms (5 s at most), fresh data directory. */
async function coldStartMs(binary: string, extraArgs: string[]): Promise<number> {
  const dataDir = tempDir("foodapi-bench-cold-");
  const port = freePort();
  const url = `http://${HOST}:${port}/healthz`;
  const started = performance.now();
  const child = track(Bun.spawn([binary, "serve", "--host", HOST, "--port", String(port), "--data-dir", dataDir, ...extraArgs], { cwd: tmpdir(), env: cleanEnv(), stdin: "ignore", stdout: "ignore", stderr: "ignore" }));
  try {
    while (performance.now() - started < 5_000) {
      try {
        const response = await fetch(url);
        if (response.status === 200) return performance.now() - started;
      } catch {}
      if (child.exitCode !== null) throw new Error(`cold start: server exited with ${child.exitCode}`);
      await Bun.sleep(2);
    }
    throw new Error("cold start: no 200 on /healthz within 5 s");
  } finally {
    await stopProcessTree(child);
  }
}

/** MiB, as `du -h` and the README count it. */
function binaryMiB(bytes: number): number {
  return round(bytes / 1024 / 1024, 1);
}

async function importTime(): Promise<Record<string, number> & { importSeconds: number }> {
  process.stderr.write(`bench: SR28 import (median of ${IMPORT_RUNS}) ... `);
  const child = track(Bun.spawn(["bash", join(ROOT, "bench/import")], { cwd: ROOT, env: { ...process.env, BENCH_RUNS: String(IMPORT_RUNS) }, stdin: "ignore", stdout: "pipe", stderr: "pipe" }));
  const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const [output, errors, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  const line = output.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  if (code !== 0 || !line) throw new Error(`bench/import failed (exit ${code}): ${errors}${output}`);
  const parsed = JSON.parse(line);
  process.stderr.write(`${parsed.importSeconds} s\n`);
  return parsed;
}

/** Bytes of a response body as sent: `encoding` asks for a content coding (kept, not decoded), else none. */
async function bodyBytes(url: string, key?: string, encoding = "identity"): Promise<number> {
  const response = await fetch(url, { headers: { "accept-encoding": encoding, ...(key ? { "X-API-Key": key } : {}) }, decompress: false });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return bytes;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function trialToken(url: string): Promise<string> {
  const challenge = (await (await fetch(`${url}/v1/trial-challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) throw new Error("could not solve the trial challenge");
  const challengeToken = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  const response = await fetch(`${url}/v1/trial-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ challengeToken }) });
  if (response.status !== 201) throw new Error(`trial token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

// ---------------------------------------------------------------------------------------------------------
// Output.

const round = (n: number, digits: number) => Number(n.toFixed(digits));
const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : null);

interface Target {
  name: string;
  value: number | null;
  target: string;
  pass: boolean | null;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r, i) => {
    const line = r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
    return i === 0 ? `${line}\n${widths.map((w) => "-".repeat(w)).join("  ")}` : line;
  }).join("\n");
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  const runStarted = performance.now();
  const wrkPath = ensureWrk();
  const wrkVersion = Bun.spawnSync([wrkPath, "-v"]).stdout.toString().split("\n")[0]!.trim();

  // The binary, copied so that a concurrent `build.sh` cannot swap it during the run.
  const source = resolve(process.env.BENCH_BINARY ?? join(ROOT, "dist/foodapi"));
  const binDir = tempDir("foodapi-bench-bin-");
  const binary = join(binDir, "foodapi");
  copyFileSync(source, binary);
  const binaryBytes = statSync(binary).size;
  const help = Bun.spawnSync([binary, "help"], { env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
  const helpText = help.stdout.toString() + help.stderr.toString();
  const hasWorkers = /--workers\b/.test(helpText);
  const hasTrialRequests = /--trial-requests\b/.test(helpText);
  const notes: string[] = [];

  // Cold start (after one unmeasured `version` exec, so the fresh copy is in the page cache).
  Bun.spawnSync([binary, "version"], { env: cleanEnv(), stdout: "ignore", stderr: "ignore" });
  // First start: a fresh cache directory each time, so the catalog is expanded into it every time.
  const firstRuns: number[] = [];
  for (let i = 0; i < COLD_START_RUNS; i++) firstRuns.push(round(await coldStartMs(binary, ["--cache-dir", tempDir("foodapi-bench-cache-")]), 1));
  const firstMedian = round(median(firstRuns), 1);
  console.error(`bench: first start (expansion included) ${firstRuns.join(", ")} ms (median ${firstMedian})`);
  // Every later start, and every workload's server, uses the bench's own cache directory; this start expands
  // the catalog there, unmeasured, so that no measured one does (nor shows its peak memory).
  const laterArgs = ["--cache-dir", benchCacheDir()];
  await coldStartMs(binary, laterArgs);
  // `serve` as shipped (default worker count), and with --workers 1 when the binary has that flag.
  // "One worker" below means `--workers 1` when the flag exists (its default is one per core), else no flag.
  const oneWorkerArgs = hasWorkers ? ["--workers", "1"] : [];
  const coldRuns: number[] = [];
  for (let i = 0; i < COLD_START_RUNS; i++) coldRuns.push(round(await coldStartMs(binary, laterArgs), 1));
  const coldMedian = round(median(coldRuns), 1);
  console.error(`bench: cold start ${coldRuns.join(", ")} ms (median ${coldMedian})`);
  const coldRuns1: number[] = [];
  if (hasWorkers) for (let i = 0; i < COLD_START_RUNS; i++) coldRuns1.push(round(await coldStartMs(binary, [...oneWorkerArgs, ...laterArgs]), 1));
  const coldMedian1 = hasWorkers ? round(median(coldRuns1), 1) : null;
  if (hasWorkers) console.error(`bench: cold start --workers 1: ${coldRuns1.join(", ")} ms (median ${coldMedian1})`);

  // Import.
  const imported = await importTime();

  // Inputs.
  const foods = readFoods();
  const inputs = tempDir("foodapi-bench-inputs-");
  const pathsFile = join(inputs, "mix-paths.txt");
  const foodsFile = join(inputs, "detail-paths.txt");
  const paths = mixPaths(foods);
  const foodNumbers = shuffled(foods.map((f) => f.number), 2016);
  writeFileSync(pathsFile, paths.join("\n") + "\n");
  writeFileSync(foodsFile, foodNumbers.map((n) => `/v1/foods/${n}`).join("\n") + "\n");
  const mixEnv = { BENCH_PATHS_FILE: pathsFile };
  const detailEnv = { BENCH_PATHS_FILE: foodsFile };
  // The same details for a client that accepts zstd, as the server stores them (no target: reported).
  const detailZstdEnv = { ...detailEnv, BENCH_ACCEPT_ENCODING: "zstd" };

  const SEARCH_PATH = "/v1/foods?q=chicken&limit=20";

  // Typical sizes, from a running server.
  const sizes = await (async () => {
    const server = await startFoodapi(binary, oneWorkerArgs);
    try {
      const healthz = await bodyBytes(`${server.url}/healthz`);
      const search = await bodyBytes(`${server.url}${SEARCH_PATH}`, server.key);
      const detailSample: number[] = [];
      const detailZstdSample: number[] = [];
      for (const n of foodNumbers.slice(0, 200)) {
        detailSample.push(await bodyBytes(`${server.url}/v1/foods/${n}`, server.key));
        detailZstdSample.push(await bodyBytes(`${server.url}/v1/foods/${n}`, server.key, "zstd"));
      }
      const mixSample: number[] = [];
      for (const p of paths.slice(0, 200)) mixSample.push(await bodyBytes(`${server.url}${p}`, server.key));
      return {
        healthzBytes: healthz,
        searchPageBytes: search,
        detailMedianBytes: Math.round(median(detailSample)),
        detailSampleMinMax: [Math.min(...detailSample), Math.max(...detailSample)],
        detailZstdMedianBytes: Math.round(median(detailZstdSample)),
        mixMedianBytes: Math.round(median(mixSample)),
        sample: 200,
        mixPathsExample: paths.slice(0, 8),
      };
    } finally {
      await server.stop();
    }
  })();
  console.error(`bench: sizes: healthz ${sizes.healthzBytes} B, search page ${sizes.searchPageBytes} B, detail median ${sizes.detailMedianBytes} B, mix median ${sizes.mixMedianBytes} B`);

  // Ceilings, each driven by the same wrk client as the workloads compared with it (same path, header or
  // Lua script): on two cores wrk's own CPU use is part of the picture, and a scripted client costs more.
  const keyed = (server: { key: string }) => ({ headers: [`X-API-Key: ${server.key}`] });
  const scripted = (server: { key: string }, script: string, env: Record<string, string>) => ({ script: join(ROOT, "bench", script), env: { ...env, BENCH_API_KEY: server.key } });
  const ceilingClient = { key: "fnk_ceiling" };
  const ceiling = async (label: string, bytes: number, path: string, client: Parameters<typeof wrk>[3] = {}) => {
    const server = await startCeiling(bytes);
    try {
      return { ...(await measure(wrkPath, `ceiling ${label} (${bytes} B)`, server, path, { ...client, tree: false })), bodyBytes: bytes };
    } finally {
      await server.stop();
    }
  };
  const ceilings = {
    healthz: await ceiling("healthz", Math.max(16, sizes.healthzBytes), "/healthz"),
    search: await ceiling("search page", sizes.searchPageBytes, SEARCH_PATH, keyed(ceilingClient)),
    mix: await ceiling("search mix, paths.lua", sizes.mixMedianBytes, "/v1/foods", scripted(ceilingClient, "paths.lua", mixEnv)),
    detail: await ceiling("food detail, paths.lua", sizes.detailMedianBytes, "/v1/foods/{n}", scripted(ceilingClient, "paths.lua", detailEnv)),
    detailZstd: await ceiling("food detail as zstd, paths.lua", sizes.detailZstdMedianBytes, "/v1/foods/{n}", scripted(ceilingClient, "paths.lua", detailZstdEnv)),
  };

  // Workloads: each on a fresh server and data directory (no state left by the one before).
  const onServer = async <M extends Measurement>(label: string, extraArgs: string[], run: (server: Server & { key: string }) => Promise<M>): Promise<M> => {
    const server = await startFoodapi(binary, extraArgs);
    try {
      return await run(server);
    } finally {
      await server.stop();
    }
  };
  const runWorkloads = async (workers: number) => {
    const args = hasWorkers ? ["--workers", String(workers)] : [];
    const tag = workers > 1 ? ` [--workers ${workers}]` : "";
    const healthz = workers === 1 ? await onServer("healthz", args, (s) => measure(wrkPath, `GET /healthz${tag}`, s, "/healthz")) : undefined;
    const search = await onServer("search", args, (s) => measure(wrkPath, `search q=chicken&limit=20${tag}`, s, SEARCH_PATH, keyed(s)));
    const mix = await onServer("mix", args, (s) => measure(wrkPath, `search mix (${MIX_QUERIES} queries)${tag}`, s, "/v1/foods", scripted(s, "paths.lua", mixEnv)));
    const detail = await onServer("detail", args, (s) => measure(wrkPath, `GET /v1/foods/{n} random${tag}`, s, "/v1/foods/{n}", scripted(s, "paths.lua", detailEnv)));
    const detailZstd =
      workers === 1
        ? await onServer("detail zstd", args, (s) => measure(wrkPath, `GET /v1/foods/{n} random, Accept-Encoding: zstd${tag}`, s, "/v1/foods/{n}", scripted(s, "paths.lua", detailZstdEnv)))
        : undefined;
    return { healthz, search, mix, detail, detailZstd };
  };

  const w1 = await runWorkloads(1);

  // Trial token: a big quota when the binary can be configured for one, else the quota-exhausted path. The
  // quota in force is read back from the server's RateLimit-Policy header, so the label says what was measured.
  const trialRun = (args: string[]) =>
    onServer("trial", args, async (s) => {
      const token = await trialToken(s.url);
      const probe = await fetch(`${s.url}${SEARCH_PATH}`, { headers: { authorization: `Bearer ${token}` } });
      await probe.arrayBuffer();
      const quota = Number(/"trial";q=(\d+)/.exec(probe.headers.get("ratelimit-policy") ?? "")?.[1] ?? NaN);
      if (probe.status !== 200 || !Number.isFinite(quota)) throw new Error(`trial token probe: ${probe.status}, RateLimit-Policy ${probe.headers.get("ratelimit-policy")}`);
      const label = quota < 100_000 ? `search, trial token (quota-exhausted path after ${quota})` : `search, trial token (quota ${quota})`;
      return { ...(await measure(wrkPath, label, s, SEARCH_PATH, { headers: [`Authorization: Bearer ${token}`] })), trialQuota: quota };
    });
  let trial: Measurement & { trialQuota: number };
  try {
    trial = await trialRun([...oneWorkerArgs, ...(hasTrialRequests ? ["--trial-requests", "100000000"] : [])]);
  } catch (error) {
    if (!hasTrialRequests) throw error;
    notes.push(`--trial-requests 100000000 did not work (${String(error).slice(0, 200)}); measured without it`);
    trial = await trialRun(oneWorkerArgs);
  }
  if (hasTrialRequests && trial.trialQuota < 100_000) notes.push(`help lists --trial-requests, but the server reported a trial quota of ${trial.trialQuota}`);

  const w2 = hasWorkers ? await runWorkloads(2) : undefined;
  if (!hasWorkers) notes.push("workers: not available (`foodapi help` does not list --workers)");
  else notes.push("rows without [--workers 2] ran with --workers 1; 'peak RSS MB' sums every process of the server (primary and workers)");

  // Figures, ratios and targets.
  const withRatio = (m: Measurement, c: Measurement) => ({ ...m, ceilingRequestsPerSecond: c.requestsPerSecond, ratioToCeiling: ratio(m.requestsPerSecond, c.requestsPerSecond), p99ToCeilingP99: ratio(m.p99Ms, c.p99Ms) });
  const workloads1 = {
    healthz: withRatio(w1.healthz!, ceilings.healthz),
    search: withRatio(w1.search, ceilings.search),
    mix: withRatio(w1.mix, ceilings.mix),
    detail: withRatio(w1.detail, ceilings.detail),
    detailZstd: withRatio(w1.detailZstd!, ceilings.detailZstd),
    trial: withRatio(trial, ceilings.search),
  };
  const workloads2 = w2
    ? {
        search: { ...withRatio(w2.search, ceilings.search), gainOverOneWorker: ratio(w2.search.requestsPerSecond, w1.search.requestsPerSecond) },
        mix: { ...withRatio(w2.mix, ceilings.mix), gainOverOneWorker: ratio(w2.mix.requestsPerSecond, w1.mix.requestsPerSecond) },
        detail: { ...withRatio(w2.detail, ceilings.detail), gainOverOneWorker: ratio(w2.detail.requestsPerSecond, w1.detail.requestsPerSecond) },
      }
    : null;

  const targets: Target[] = [];
  const check = (name: string, value: number | null, target: string, pass: boolean | null) => targets.push({ name, value, target, pass });
  check("repeated search / ceiling", workloads1.search.ratioToCeiling, `>= ${TARGETS.searchRatio}`, workloads1.search.ratioToCeiling !== null && workloads1.search.ratioToCeiling >= TARGETS.searchRatio);
  check("1,000-query mix / ceiling", workloads1.mix.ratioToCeiling, `>= ${TARGETS.mixRatio}`, workloads1.mix.ratioToCeiling !== null && workloads1.mix.ratioToCeiling >= TARGETS.mixRatio);
  if (trial.trialQuota < 100_000) {
    const vsSearch = ratio(trial.requestsPerSecond, w1.search.requestsPerSecond);
    check("exhausted trial token / repeated search", vsSearch, `>= ${TARGETS.exhaustedTrialVsSearch}`, vsSearch !== null && vsSearch >= TARGETS.exhaustedTrialVsSearch);
  }
  check("random detail / ceiling", workloads1.detail.ratioToCeiling, `>= ${TARGETS.detailRatio}`, workloads1.detail.ratioToCeiling !== null && workloads1.detail.ratioToCeiling >= TARGETS.detailRatio);
  for (const [name, m] of [["repeated search", workloads1.search], ["1,000-query mix", workloads1.mix], ["random detail", workloads1.detail]] as const) {
    check(`${name} p99 / ceiling p99`, m.p99ToCeilingP99, `<= ${TARGETS.p99Factor}`, m.p99ToCeilingP99 !== null && m.p99ToCeilingP99 <= TARGETS.p99Factor);
  }
  check("binary size (MiB)", binaryMiB(binaryBytes), `<= ${TARGETS.binaryMb}`, binaryMiB(binaryBytes) <= TARGETS.binaryMb);
  check("first start median (ms), expansion included", firstMedian, `<= ${TARGETS.firstStartMs}`, firstMedian <= TARGETS.firstStartMs);
  check("later start median (ms), default serve", coldMedian, `<= ${TARGETS.coldStartMs}`, coldMedian <= TARGETS.coldStartMs);
  if (coldMedian1 !== null) check("later start median (ms), --workers 1", coldMedian1, `<= ${TARGETS.coldStartMs}`, coldMedian1 <= TARGETS.coldStartMs);
  check("SR28 import (s)", imported.importSeconds, `<= ${TARGETS.importSeconds}`, imported.importSeconds <= TARGETS.importSeconds);
  const apiMeasurements = [...Object.values(workloads1), ...(workloads2 ? Object.values(workloads2) : [])];
  const peakPerWorker = Math.max(...apiMeasurements.map((m) => m.peakRssPerProcessMb));
  check("peak RSS per worker under load (MB)", peakPerWorker, `<= ${TARGETS.rssMbPerWorker}`, peakPerWorker <= TARGETS.rssMbPerWorker);
  if (workloads2) {
    for (const [name, m] of Object.entries(workloads2)) check(`--workers 2 gain, ${name}`, m.gainOverOneWorker, "(reported)", null);
  } else {
    check("--workers 2 gain", null, "workers: not available", null);
  }

  const totalSeconds = round((performance.now() - runStarted) / 1000, 1);
  const results = {
    startedAt: new Date(Date.now() - totalSeconds * 1000).toISOString(),
    totalSeconds,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "", bun: Bun.version, wrk: wrkVersion },
    settings: { threads: THREADS, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, freshServerPerWorkload: true, serverFlags: SERVER_LIMIT_FLAGS },
    binary: { path: source, bytes: binaryBytes, mb: binaryMiB(binaryBytes), helpListsWorkers: hasWorkers, helpListsTrialRequests: hasTrialRequests },
    firstStart: { runsMs: firstRuns, medianMs: firstMedian, args: "serve --cache-dir <fresh>" },
    coldStart: { runsMs: coldRuns, medianMs: coldMedian, args: "serve (defaults)", workers1: hasWorkers ? { runsMs: coldRuns1, medianMs: coldMedian1, args: oneWorkerArgs } : "workers: not available" },
    import: imported,
    sizes,
    ceilings,
    workloads: { oneWorker: workloads1, twoWorkers: workloads2 ?? "workers: not available" },
    targets,
    notes,
  };
  writeFileSync(join(ROOT, "bench/results.json"), JSON.stringify(results, null, 2) + "\n");

  // The table.
  const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? "-" : n.toFixed(digits));
  const row = (m: Measurement & { ratioToCeiling?: number | null; p99ToCeilingP99?: number | null; gainOverOneWorker?: number | null }, isCeiling = false) => [
    m.label,
    fmt(m.requestsPerSecond, 0),
    fmt(m.p50Ms, 2),
    fmt(m.p99Ms, 2),
    String(m.non2xx + m.socketErrors.connect + m.socketErrors.read + m.socketErrors.write + m.socketErrors.timeout === 0 ? "0" : `${m.non2xx}/${m.socketErrors.connect + m.socketErrors.read + m.socketErrors.write + m.socketErrors.timeout}`),
    fmt(m.peakTotalRssMb, 1),
    isCeiling ? "-" : fmt(m.ratioToCeiling, 2),
    isCeiling ? "-" : fmt(m.p99ToCeilingP99, 2),
    m.gainOverOneWorker === undefined ? "" : fmt(m.gainOverOneWorker, 2),
  ];
  const rows: string[][] = [["workload (wrk -t2 -c64 -d" + SECONDS + "s)", "req/s", "p50 ms", "p99 ms", "non2xx/sockerr", "peak RSS MB", "x ceiling", "p99 x ceil", "gain w2"]];
  rows.push(...Object.values(ceilings).map((c) => row(c, true)));
  for (const m of Object.values(workloads1)) rows.push(row(m));
  if (workloads2) for (const m of Object.values(workloads2)) rows.push(row(m));

  const out: string[] = [];
  out.push(`foodapi bench: ${results.machine.cpus} CPUs (${results.machine.cpuModel}), bun ${Bun.version}, ${wrkVersion.split(" [")[0]}`);
  out.push(`binary ${results.binary.mb} MiB; first start (catalog expanded) median ${firstMedian} ms (${firstRuns.join(", ")}); cold start median ${coldMedian} ms (${coldRuns.join(", ")})${hasWorkers ? `, with --workers 1 ${coldMedian1} ms (${coldRuns1.join(", ")})` : ""}; SR28 import ${imported.importSeconds} s (median of ${IMPORT_RUNS})`);
  out.push(`typical sizes: search page ${sizes.searchPageBytes} B, detail median ${sizes.detailMedianBytes} B (of ${sizes.sample}), mix median ${sizes.mixMedianBytes} B, healthz ${sizes.healthzBytes} B`);
  out.push("");
  out.push(table(rows));
  out.push("ceilings (same wrk client and body size as the workloads they are compared with): search & trial vs 'ceiling search page'; mix vs 'ceiling search mix'; detail vs 'ceiling food detail'; detail with zstd vs 'ceiling food detail as zstd'; healthz vs 'ceiling healthz'");
  out.push(`peak RSS per process, VmHWM (anon part) MB: ${apiMeasurements.map((m) => `${m.label.replace(/ \([^)]*\)/, "")} ${m.peakRssPerProcessMb} (${m.peakAnonRssPerProcessMb})`).join("; ")}`);
  out.push("");
  out.push(table([["target", "value", "target", "result"], ...targets.map((t) => [t.name, t.value === null ? "-" : String(t.value), t.target, t.pass === null ? "" : t.pass ? "met" : "NOT met"])]));
  if (notes.length) out.push("", ...notes.map((n) => `note: ${n}`));
  out.push("", `total ${totalSeconds} s; wrote bench/results.json`);
  console.log(out.join("\n"));
}

try {
  await main();
} catch (error) {
  console.error(`\nbench: failed: ${error instanceof Error ? error.message : String(error)}`);
  cleanup();
  process.exit(1);
}
cleanup();
process.exit(0);
