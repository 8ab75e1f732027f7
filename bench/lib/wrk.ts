import { type MemoryReport, sampleMemory } from "./memory";
import { round } from "./numbers";
import { cleanEnv, cpuSeconds, track } from "./processes";
import type { Server } from "./servers";
import { CONNECTIONS, SECONDS, THREADS, WARMUP_SECONDS } from "./settings";

/** Driving load with wrk (-t2 -c64 --latency) and reading its figures. */

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
}

export interface Measurement extends WrkResult, MemoryReport {
  label: string;
  url: string;
  bodyBytes?: number;
  /** The server's CPU time (user + system, every process) over the measured run, per request answered. */
  serverCpuMicrosPerRequest?: number;
}

/** How wrk sends: fixed headers, or a Lua script (with its environment); threads and connections (default -t2 -c64). */
export interface WrkClient {
  script?: string;
  headers?: string[];
  env?: Record<string, string>;
  threads?: number;
  connections?: number;
}

export function ensureWrk(): string {
  let wrk = Bun.which("wrk");
  if (wrk) return wrk;
  console.error("bench: wrk is missing; installing it with apt-get (Debian package 'wrk')");
  const install = Bun.spawnSync(["bash", "-c", "apt-get update && apt-get install -y wrk"], { stdout: "inherit", stderr: "inherit", timeout: 300_000 });
  wrk = Bun.which("wrk");
  if (install.exitCode !== 0 || !wrk) throw new Error("wrk is missing and could not be installed (apt-get update && apt-get install -y wrk)");
  return wrk;
}

export function wrkVersion(wrkPath: string): string {
  return Bun.spawnSync([wrkPath, "-v"]).stdout.toString().split("\n")[0]!.trim();
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

/** One wrk run, bounded by its duration and a hard timeout 30 s past it. */
export async function wrk(wrkPath: string, url: string, seconds: number, options: WrkClient = {}): Promise<{ output: string; result: WrkResult }> {
  const args = [wrkPath, `-t${options.threads ?? THREADS}`, `-c${options.connections ?? CONNECTIONS}`, `-d${seconds}s`, "--timeout", "5s", "--latency"];
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
export async function measure(wrkPath: string, label: string, server: Server, path: string, options: WrkClient & { tree?: boolean } = {}): Promise<Measurement> {
  const url = `${server.url}${path}`;
  process.stderr.write(`bench: ${label} ... `);
  if (WARMUP_SECONDS > 0) await wrk(wrkPath, url, WARMUP_SECONDS, options);
  const sampler = sampleMemory(server.pid, options.tree ?? true);
  const cpuBefore = cpuSeconds(server.pid, options.tree ?? true);
  let measured: Awaited<ReturnType<typeof wrk>> | undefined;
  let memory: MemoryReport;
  try {
    measured = await wrk(wrkPath, url, SECONDS, options);
  } finally {
    memory = sampler.stop();
  }
  const cpu = cpuSeconds(server.pid, options.tree ?? true) - cpuBefore;
  const serverCpuMicrosPerRequest = measured.result.requests > 0 ? round((cpu * 1e6) / measured.result.requests, 2) : undefined;
  const m: Measurement = { label, url: path, ...measured.result, ...memory, serverCpuMicrosPerRequest };
  process.stderr.write(`${m.requestsPerSecond} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, server CPU ${serverCpuMicrosPerRequest} µs/request${m.non2xx ? `, non-2xx ${m.non2xx}` : ""}\n`);
  return m;
}

/**
 * One wrk per server, all at once (warm-up, then the measured run), each with an equal share of the threads
 * and connections (so that together they offer the load one wrk offers one server): the requests per
 * second summed, the worst of their p50 and p99, the servers' memory summed (per process: the largest).
 */
export async function measureTogether(wrkPath: string, label: string, servers: Server[], path: string, client: WrkClient = {}): Promise<Measurement & { perServer: WrkResult[] }> {
  const share = { threads: Math.max(1, Math.floor(THREADS / servers.length)), connections: Math.max(1, Math.floor(CONNECTIONS / servers.length)) };
  const options = { ...client, ...share };
  process.stderr.write(`bench: ${label} ... `);
  if (WARMUP_SECONDS > 0) await Promise.all(servers.map((server) => wrk(wrkPath, `${server.url}${path}`, WARMUP_SECONDS, options)));
  const samplers = servers.map((server) => sampleMemory(server.pid, true));
  let results: WrkResult[];
  let memories: MemoryReport[];
  try {
    results = (await Promise.all(servers.map((server) => wrk(wrkPath, `${server.url}${path}`, SECONDS, options)))).map((r) => r.result);
  } finally {
    memories = samplers.map((sampler) => sampler.stop());
  }
  const sum = (f: (r: WrkResult) => number) => results.reduce((total, r) => total + f(r), 0);
  const m = {
    label,
    url: path,
    requestsPerSecond: round(sum((r) => r.requestsPerSecond), 1),
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    socketErrors: {
      connect: sum((r) => r.socketErrors.connect),
      read: sum((r) => r.socketErrors.read),
      write: sum((r) => r.socketErrors.write),
      timeout: sum((r) => r.socketErrors.timeout),
    },
    peakTotalRssMb: round(memories.reduce((total, x) => total + x.peakTotalRssMb, 0), 1),
    peakRssPerProcessMb: Math.max(...memories.map((x) => x.peakRssPerProcessMb)),
    peakAnonRssPerProcessMb: Math.max(...memories.map((x) => x.peakAnonRssPerProcessMb)),
    processes: memories.reduce((total, x) => total + x.processes, 0),
    perServer: results,
  };
  process.stderr.write(`${m.requestsPerSecond} req/s summed (${results.map((r) => r.requestsPerSecond).join(" + ")}), p99 ${m.p99Ms} ms${m.non2xx ? `, non-2xx ${m.non2xx}` : ""}\n`);
  return m;
}
