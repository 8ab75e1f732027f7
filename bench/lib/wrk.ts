import { type MemoryReport, sampleMemory } from "./memory";
import { median, round } from "./numbers";
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

/** One slice of an interleaved comparison: a short wrk run against one of the servers. */
interface Slice {
  requestsPerSecond: number;
  p99Ms: number;
  requests: number;
  serverCpuMicrosPerRequest: number;
}

export interface Interleaved {
  /** Each side over all its slices: requests/s and CPU per request over the whole, p50/p99 the slices' median, memory over the whole. */
  a: Measurement;
  b: Measurement;
  /** Per round, b against a: requests/s b/a, server CPU per request a/b (both above 1 when b is cheaper), p99 b/a. */
  rounds: { rpsRatio: number; cpuRatio: number; p99Ratio: number; a: Slice; b: Slice }[];
  /** The medians of the rounds' ratios. */
  rpsRatio: number;
  cpuRatio: number;
  p99Ratio: number;
}

/**
 * Two servers compared under one load (a workload and its ceiling, or the same search with metrics off and
 * on), for ratios that separate runs cannot give on a shared machine: its speed drifts by more than the
 * differences measured, within a minute and between runs. Both run at once, warmed up, and
 * take the load in turn, in short slices, for `rounds` rounds, in the order a b, b a, a b, ... so that a
 * drift within a round favours neither. Each round gives a ratio of the two; the figure is the median of
 * those, which one disturbed slice does not move. Bounded: 2 x rounds x sliceSeconds of load.
 */
export async function measureInterleaved(
  wrkPath: string,
  labels: readonly [string, string],
  servers: readonly [Server, Server],
  path: string,
  clients: readonly [WrkClient, WrkClient],
  rounds: number,
  sliceSeconds: number,
): Promise<Interleaved> {
  const rotation = await measureRotation(wrkPath, labels, servers, path, clients, rounds, sliceSeconds);
  const perRound = rotation.rounds.map((slices) => {
    const [a, b] = [slices[0]!, slices[1]!];
    return { a, b, rpsRatio: b.requestsPerSecond / a.requestsPerSecond, cpuRatio: a.serverCpuMicrosPerRequest / b.serverCpuMicrosPerRequest, p99Ratio: b.p99Ms / a.p99Ms };
  });
  const result: Interleaved = {
    a: rotation.sides[0]!,
    b: rotation.sides[1]!,
    rounds: perRound,
    rpsRatio: round(median(perRound.map((r) => r.rpsRatio)), 3),
    cpuRatio: round(median(perRound.map((r) => r.cpuRatio)), 3),
    p99Ratio: round(median(perRound.map((r) => r.p99Ratio)), 3),
  };
  process.stderr.write(
    `bench: ${labels[1]}/${labels[0]}: req/s ${result.rpsRatio}, CPU per request ${labels[0]}/${labels[1]} ${result.cpuRatio} (medians of ${rounds} rounds; ${result.a.requestsPerSecond} and ${result.b.requestsPerSecond} req/s, ${result.a.serverCpuMicrosPerRequest} and ${result.b.serverCpuMicrosPerRequest} µs/request)\n`,
  );
  return result;
}

/** Several servers under one load, in turn: each side over all its slices, and every round's slices. */
export interface Rotation {
  sides: Measurement[];
  rounds: Slice[][];
}

/** Server b against server a over a rotation's rounds: medians of the rounds' requests/s b/a, CPU per request b/a and p99 b/a. */
export interface Compared {
  rpsRatio: number;
  /**
   * The lowest and the highest round's requests/s b/a: how far one round strays from the median on this
   * machine, so that a reader can tell a difference from the noise (docs/performance.md, "Telling a change
   * from noise").
   */
  rpsRange: [number, number];
  cpuRatio: number;
  p99Ratio: number;
}

export function compare(rotation: Rotation, a: number, b: number): Compared {
  const each = (f: (x: Slice, y: Slice) => number) => rotation.rounds.map((slices) => f(slices[a]!, slices[b]!));
  const of = (f: (x: Slice, y: Slice) => number) => round(median(each(f)), 3);
  const rps = each((x, y) => y.requestsPerSecond / x.requestsPerSecond);
  return {
    rpsRatio: round(median(rps), 3),
    rpsRange: [round(Math.min(...rps), 3), round(Math.max(...rps), 3)],
    cpuRatio: of((x, y) => y.serverCpuMicrosPerRequest / x.serverCpuMicrosPerRequest),
    p99Ratio: of((x, y) => y.p99Ms / x.p99Ms),
  };
}

/** A compared ratio as a report prints it: the median, and the rounds' range beside it. */
export function ratioWithRange(compared: Compared): string {
  return `${compared.rpsRatio} (${compared.rpsRange[0]}-${compared.rpsRange[1]})`;
}

/**
 * Servers compared under one load, all up at once, warmed up, taking the load in turn in short slices: for
 * `rounds` rounds, in their order on even rounds and the reverse on odd ones, so that a drift within a round
 * favours none. `paths` and `clients` are each server's (a floor, a ceiling and foodapi are driven by the
 * same script). Bounded: servers x rounds x sliceSeconds of load.
 */
export async function measureRotation(
  wrkPath: string,
  labels: readonly string[],
  servers: readonly Server[],
  path: string,
  clients: readonly WrkClient[],
  rounds: number,
  sliceSeconds: number,
): Promise<Rotation> {
  process.stderr.write(`bench: ${labels.join(" / ")}, interleaved (${rounds} rounds of ${sliceSeconds} s each) ... `);
  const indices = servers.map((_, i) => i);
  if (WARMUP_SECONDS > 0) for (const i of indices) await wrk(wrkPath, `${servers[i]!.url}${path}`, WARMUP_SECONDS, clients[i]);
  const samplers = servers.map((server) => sampleMemory(server.pid, true));
  const slices: WrkResult[][] = servers.map(() => []);
  const perRound: Slice[][] = [];
  const cpuTotals = servers.map(() => 0);
  let memories: MemoryReport[];
  try {
    for (let r = 0; r < rounds; r++) {
      const taken: Slice[] = [];
      for (const i of r % 2 === 0 ? indices : [...indices].reverse()) {
        const before = cpuSeconds(servers[i]!.pid, true);
        const { result } = await wrk(wrkPath, `${servers[i]!.url}${path}`, sliceSeconds, clients[i]);
        const cpu = cpuSeconds(servers[i]!.pid, true) - before;
        cpuTotals[i] = cpuTotals[i]! + cpu;
        slices[i]!.push(result);
        taken[i] = { requestsPerSecond: result.requestsPerSecond, p99Ms: result.p99Ms, requests: result.requests, serverCpuMicrosPerRequest: result.requests > 0 ? (cpu * 1e6) / result.requests : NaN };
      }
      perRound.push(taken);
    }
  } finally {
    memories = samplers.map((sampler) => sampler.stop());
  }
  const side = (i: number): Measurement => {
    const mine = slices[i]!;
    const requests = mine.reduce((sum, s) => sum + s.requests, 0);
    const total = (f: (s: WrkResult) => number) => mine.reduce((sum, s) => sum + f(s), 0);
    return {
      label: labels[i]!,
      url: path,
      requestsPerSecond: round(requests / (rounds * sliceSeconds), 1),
      p50Ms: round(median(mine.map((s) => s.p50Ms)), 3),
      p99Ms: round(median(mine.map((s) => s.p99Ms)), 3),
      requests,
      non2xx: total((s) => s.non2xx),
      socketErrors: {
        connect: total((s) => s.socketErrors.connect),
        read: total((s) => s.socketErrors.read),
        write: total((s) => s.socketErrors.write),
        timeout: total((s) => s.socketErrors.timeout),
      },
      ...memories[i]!,
      serverCpuMicrosPerRequest: requests > 0 ? round((cpuTotals[i]! * 1e6) / requests, 2) : undefined,
    };
  };
  const sides = indices.map(side);
  process.stderr.write(`${sides.map((s) => `${s.requestsPerSecond} req/s, p99 ${s.p99Ms} ms, ${s.serverCpuMicrosPerRequest} µs/request${s.non2xx ? `, non-2xx ${s.non2xx}` : ""}`).join(" / ")}\n`);
  return { sides, rounds: perRound };
}
