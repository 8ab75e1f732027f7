import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../test/helpers/paths";
import { binaryMiB, ratio, round } from "./numbers";
import { CONNECTIONS, IMPORT_RUNS, SECONDS, SERVER_LIMIT_FLAGS, THREADS, WARMUP_SECONDS } from "./settings";
import { type FloorFigures, floorTable } from "./floors";
import { type WorkersMemory, workersMemoryTables } from "./workers-memory";
import type { PageTouchCost } from "./page-touch";
import type { Interleaved, Measurement } from "./wrk";

/** The targets, the figures against them, bench/results.json and the printed tables. */

export const TARGETS = {
  searchRatio: 0.6,
  mixRatio: 0.3,
  /** 1,000 searches sorted or filtered by nutrients (decisions §9), against a ceiling of their median size. */
  nutrientMixRatio: 0.4,
  /** Random details as plain JSON, and as a browser or a gzip-only client gets them, each against a ceiling of its own body size. */
  detailRatio: 0.35,
  detailEncodedRatio: 0.5,
  p99Factor: 2,
  /** Each data route against its floor (decisions §18, issue #32): requests/s foodapi / floor, interleaved. */
  floorRatio: { search: 0.9, detail: 0.8, detailGzip: 0.9, detailZstd: 0.9 } as Partial<Record<string, number>>,
  /** foodapi's p99 against its floor's, on the same routes. */
  floorP99Factor: 1.5,
  coldStartMs: 60,
  /** A first start includes expanding the compressed catalog into the cache directory and rebuilding its detail answers. */
  firstStartMs: 1500,
  binaryMb: 120,
  importSeconds: 4,
  rssMbPerWorker: 150,
  /** An exhausted trial token is refused from memory: at least half the throughput of a cached search. */
  exhaustedTrialVsSearch: 0.5,
  /** State in PostgreSQL and counters in Redis, one instance: at least this share of the SQLite mode's throughput. */
  storesVsSqlite: 0.7,
  /** Counting every request for /metrics costs the search at most 3 % (of its server CPU per request, and of its throughput). */
  metricsOnVsOff: 0.97,
  /** A cold 20-line recipe (every line distinct, one worker): its p99, and analyses per second (issue #30). */
  analysisP99Ms: 20,
  analysesPerSecond: 500,
};

interface Target {
  name: string;
  value: number | null;
  target: string;
  pass: boolean | null;
}

/** Every run's time and their median (ms). */
export interface StartTimes {
  runsMs: number[];
  medianMs: number;
}

/** Start times of one kind: every run and their median (ms). */
export interface Starts extends StartTimes {
  /** Exec to the first 200 on a route Elysia answers (composed after the start: design §18). */
  everyRoute: { runsMs: number[]; medianMs: number };
}

interface Ceilings {
  healthz: Measurement;
  search: Measurement;
  mix: Measurement;
  nutrientMix: Measurement;
  detail: Measurement;
  detailBrowser: Measurement;
  detailGzip: Measurement;
}

export interface Figures {
  runStarted: number;
  wrkVersion: string;
  binary: { path: string; bytes: number };
  /** A fresh page's price on this machine (page-touch.ts): what the starts move with. */
  pageTouch: PageTouchCost;
  firstStart: Starts;
  /** With the start's ceiling (bench/start-ceiling.ts), timed interleaved with it. */
  coldStart: Starts & { ceiling: StartTimes };
  coldStartOneWorker: Starts & { args: string[] };
  /** --workers 1 making a new data directory each time (the later starts reopen one). */
  coldStartNewData: Starts & { args: string[] };
  imported: Record<string, number> & { importSeconds: number };
  sizes: { healthzBytes: number; searchPageBytes: number; detailMedianBytes: number; mixMedianBytes: number; nutrientMixMedianBytes: number; sample: number } & Record<string, unknown>;
  ceilings: Ceilings;
  oneWorker: { healthz: Measurement; search: Measurement; mix: Measurement; nutrientMix: Measurement; detail: Measurement; detailBrowser: Measurement; detailGzip: Measurement };
  /** Each one-worker workload against its ceiling, interleaved: the medians of the rounds' ratios. */
  ratios: Record<keyof Ceilings, { requestsPerSecond: number; p99: number }>;
  trial: Measurement & { trialQuota: number };
  /** Repeated search without (a) and with (b) --metrics-token, interleaved. */
  metrics: Interleaved;
  twoWorkers: { search: Measurement; mix: Measurement; detail: Measurement };
  /** The PostgreSQL + Redis mode, or why it was skipped. */
  stores: StoresFigures | { skipped: string };
  /** Each route against its floor and the ceiling, interleaved (bench/lib/floors.ts). */
  floors: Partial<Record<string, FloorFigures>>;
  /** Each process's memory with --workers 1, 2 and 4 (bench/lib/workers-memory.ts). */
  workersMemory: WorkersMemory;
  notes: string[];
}

/**
 * The PostgreSQL + Redis mode: one instance with --workers 1, interleaved with a SQLite one (medians of the
 * rounds' ratios: requests/s PostgreSQL + Redis / SQLite, CPU per request SQLite / PostgreSQL + Redis, p99
 * PostgreSQL + Redis / SQLite); and two instances sharing the stores (summed).
 */
interface StoresFigures {
  search: Measurement & { versusSqlite: InterleavedRatios };
  detail: Measurement & { versusSqlite: InterleavedRatios };
  twoInstances: { search: Measurement; detail: Measurement };
}

interface InterleavedRatios {
  requestsPerSecond: number;
  cpuPerRequest: number;
  p99: number;
}

type Compared = Measurement & {
  ceilingRequestsPerSecond?: number;
  ratioToCeiling?: number | null;
  p99ToCeilingP99?: number | null;
  gainOverOneWorker?: number | null;
  /** PostgreSQL + Redis rows: the ratio to the SQLite mode's same workload (--workers 1). */
  ratioToSqlite?: number | null;
};

/** Writes bench/results.json and prints the figures, their ratios to the ceilings and the targets. */
export function report(f: Figures): void {
  const withRatio = (m: Measurement, c: Measurement) => ({ ...m, ceilingRequestsPerSecond: c.requestsPerSecond, ratioToCeiling: ratio(m.requestsPerSecond, c.requestsPerSecond), p99ToCeilingP99: ratio(m.p99Ms, c.p99Ms) });
  const { ceilings, oneWorker: w1, twoWorkers: w2, trial } = f;
  // The interleaved ratios (medians of rounds), rather than the quotient of the two sides' totals.
  const interleaved = (name: keyof Ceilings) => ({ ...withRatio(w1[name], ceilings[name]), ratioToCeiling: f.ratios[name].requestsPerSecond, p99ToCeilingP99: f.ratios[name].p99 });
  const workloads1 = {
    healthz: interleaved("healthz"),
    search: interleaved("search"),
    mix: interleaved("mix"),
    nutrientMix: interleaved("nutrientMix"),
    detail: interleaved("detail"),
    detailBrowser: interleaved("detailBrowser"),
    detailGzip: interleaved("detailGzip"),
    trial: withRatio(trial, ceilings.search),
  };
  const workloads2 = {
    search: { ...withRatio(w2.search, ceilings.search), gainOverOneWorker: ratio(w2.search.requestsPerSecond, w1.search.requestsPerSecond) },
    mix: { ...withRatio(w2.mix, ceilings.mix), gainOverOneWorker: ratio(w2.mix.requestsPerSecond, w1.mix.requestsPerSecond) },
    detail: { ...withRatio(w2.detail, ceilings.detail), gainOverOneWorker: ratio(w2.detail.requestsPerSecond, w1.detail.requestsPerSecond) },
  };

  const storesMode = "skipped" in f.stores ? undefined : f.stores;
  const versusSqlite = (m: Measurement, c: Measurement, sqlite: Measurement) => ({ ...withRatio(m, c), ratioToSqlite: ratio(m.requestsPerSecond, sqlite.requestsPerSecond) });
  const interleavedWithSqlite = (m: Measurement & { versusSqlite: InterleavedRatios }, c: Measurement) => ({ ...withRatio(m, c), ratioToSqlite: m.versusSqlite.requestsPerSecond });
  const workloadsStores = storesMode && {
    search: interleavedWithSqlite(storesMode.search, ceilings.search),
    detail: interleavedWithSqlite(storesMode.detail, ceilings.detail),
    twoInstancesSearch: versusSqlite(storesMode.twoInstances.search, ceilings.search, w1.search),
    twoInstancesDetail: versusSqlite(storesMode.twoInstances.detail, ceilings.detail, w1.detail),
  };

  const targets: Target[] = [];
  const check = (name: string, value: number | null, target: string, pass: boolean | null) => targets.push({ name, value, target, pass });
  const atLeast = (value: number | null, min: number) => value !== null && value >= min;
  const atMost = (value: number | null, max: number) => value !== null && value <= max;
  check("repeated search / ceiling", workloads1.search.ratioToCeiling, `>= ${TARGETS.searchRatio}`, atLeast(workloads1.search.ratioToCeiling, TARGETS.searchRatio));
  check("1,000-query mix / ceiling", workloads1.mix.ratioToCeiling, `>= ${TARGETS.mixRatio}`, atLeast(workloads1.mix.ratioToCeiling, TARGETS.mixRatio));
  check(
    "1,000-query nutrient mix / ceiling",
    workloads1.nutrientMix.ratioToCeiling,
    `>= ${TARGETS.nutrientMixRatio}`,
    atLeast(workloads1.nutrientMix.ratioToCeiling, TARGETS.nutrientMixRatio),
  );
  const trialVsSearch = ratio(trial.requestsPerSecond, w1.search.requestsPerSecond);
  check("exhausted trial token / repeated search", trialVsSearch, `>= ${TARGETS.exhaustedTrialVsSearch}`, atLeast(trialVsSearch, TARGETS.exhaustedTrialVsSearch));
  check("random detail / ceiling", workloads1.detail.ratioToCeiling, `>= ${TARGETS.detailRatio}`, atLeast(workloads1.detail.ratioToCeiling, TARGETS.detailRatio));
  for (const [name, m] of [["random detail, browser", workloads1.detailBrowser], ["random detail, gzip only", workloads1.detailGzip]] as const) {
    check(`${name} / its ceiling`, m.ratioToCeiling, `>= ${TARGETS.detailEncodedRatio}`, atLeast(m.ratioToCeiling, TARGETS.detailEncodedRatio));
  }
  for (const [name, m] of [["repeated search", workloads1.search], ["1,000-query mix", workloads1.mix], ["1,000-query nutrient mix", workloads1.nutrientMix], ["random detail", workloads1.detail]] as const) {
    check(`${name} p99 / ceiling p99`, m.p99ToCeilingP99, `<= ${TARGETS.p99Factor}`, atMost(m.p99ToCeilingP99, TARGETS.p99Factor));
  }
  const mb = binaryMiB(f.binary.bytes);
  check("binary size (MiB)", mb, `<= ${TARGETS.binaryMb}`, mb <= TARGETS.binaryMb);
  check("first start median (ms), expansion included", f.firstStart.medianMs, `<= ${TARGETS.firstStartMs}`, f.firstStart.medianMs <= TARGETS.firstStartMs);
  check("later start median (ms), default serve", f.coldStart.medianMs, `<= ${TARGETS.coldStartMs}`, f.coldStart.medianMs <= TARGETS.coldStartMs);
  check("later start median (ms), --workers 1", f.coldStartOneWorker.medianMs, `<= ${TARGETS.coldStartMs}`, f.coldStartOneWorker.medianMs <= TARGETS.coldStartMs);
  check("a fresh page's first write, same run (µs)", f.pageTouch.faultedMicros, "(reported)", null);
  check("the start's ceiling, a bare compiled Bun.serve, same run (ms)", f.coldStart.ceiling.medianMs, "(reported)", null);
  check("later start / the start's ceiling, default serve", ratio(f.coldStart.medianMs, f.coldStart.ceiling.medianMs), "(reported)", null);
  check("later start to every route answering (ms), default serve", f.coldStart.everyRoute.medianMs, "(reported)", null);
  check("later start to every route answering (ms), --workers 1", f.coldStartOneWorker.everyRoute.medianMs, "(reported)", null);
  check("start median (ms), --workers 1, new data directory", f.coldStartNewData.medianMs, "(reported)", null);
  check("SR28 import (s)", f.imported.importSeconds, `<= ${TARGETS.importSeconds}`, f.imported.importSeconds <= TARGETS.importSeconds);
  // The seconds move with a shared machine's speed (3.9 to 5.8 s for one build within an hour); the ratio to
  // the parsing baseline measured in the same process does not, so a change to the importer shows there.
  if (f.imported.ratioToBaseline !== undefined) check("SR28 import / same-run parsing baseline", f.imported.ratioToBaseline, "(reported)", null);
  for (const [name, key] of [["repeated search", "search"], ["random detail", "detail"]] as const) {
    const value = workloadsStores ? workloadsStores[key].ratioToSqlite! : null;
    check(`PostgreSQL + Redis ${name} / SQLite mode`, value, `>= ${TARGETS.storesVsSqlite}`, workloadsStores ? atLeast(value, TARGETS.storesVsSqlite) : null);
  }
  for (const [name, two, one] of [
    ["search", "twoInstancesSearch", "search"],
    ["detail", "twoInstancesDetail", "detail"],
  ] as const) {
    const value = workloadsStores ? ratio(workloadsStores[two].requestsPerSecond, workloadsStores[one].requestsPerSecond) : null;
    check(`PostgreSQL + Redis 2 instances / 1 instance, ${name}`, value, "(reported)", null);
  }
  // The two-instance rows are reported, not held to targets: two instances, PostgreSQL, Redis and two wrk
  // oversubscribe the machine's cores. Their per-process peak is shown beside the target instead.
  const storesOneInstance = workloadsStores ? [workloadsStores.search, workloadsStores.detail] : [];
  const storesTwoInstances = workloadsStores ? [workloadsStores.twoInstancesSearch, workloadsStores.twoInstancesDetail] : [];
  const apiMeasurements = [...Object.values(workloads1), ...Object.values(workloads2), ...storesOneInstance, ...storesTwoInstances];
  const peakPerWorker = Math.max(...[...Object.values(workloads1), ...Object.values(workloads2), ...storesOneInstance].map((m) => m.peakRssPerProcessMb));
  check("peak RSS per worker under load (MB)", peakPerWorker, `<= ${TARGETS.rssMbPerWorker}`, peakPerWorker <= TARGETS.rssMbPerWorker);
  if (storesTwoInstances.length) {
    check("peak RSS per process, PostgreSQL + Redis 2 instances (MB)", Math.max(...storesTwoInstances.map((m) => m.peakRssPerProcessMb)), "(reported)", null);
  }
  for (const [name, m] of Object.entries(workloads2)) check(`--workers 2 gain, ${name}`, m.gainOverOneWorker, "(reported)", null);
  // Medians of per-round ratios from two servers taking the load in turn (measureInterleaved): a drift of the
  // machine's speed, which moved separate runs by more than the 3 % measured here, falls on both sides.
  const metricsRatio = f.metrics.rpsRatio;
  check("search with metrics on / off, req/s (interleaved, median)", metricsRatio, `>= ${TARGETS.metricsOnVsOff}`, atLeast(metricsRatio, TARGETS.metricsOnVsOff));
  const metricsCpuRatio = f.metrics.cpuRatio;
  check("search with metrics off / on, server CPU per request (median)", metricsCpuRatio, `>= ${TARGETS.metricsOnVsOff}`, atLeast(metricsCpuRatio, TARGETS.metricsOnVsOff));

  const { analysis, analysisOneClient } = f.floors;
  if (analysisOneClient) check("cold 20-line analysis p99 (ms), one client, --workers 1", analysisOneClient.foodapi.p99Ms, `<= ${TARGETS.analysisP99Ms}`, atMost(analysisOneClient.foodapi.p99Ms, TARGETS.analysisP99Ms));
  if (analysis) {
    check("cold 20-line analysis p99 (ms), 64 connections, --workers 1", analysis.foodapi.p99Ms, "(reported)", null);
    check("cold 20-line analyses per second, --workers 1", analysis.foodapi.requestsPerSecond, `>= ${TARGETS.analysesPerSecond}`, atLeast(analysis.foodapi.requestsPerSecond, TARGETS.analysesPerSecond));
  }
  for (const b of f.workersMemory.beyondFirst) {
    check(`each worker beyond the first: tree's private growth / (N-1) (MB), --workers ${b.workers}`, b.privateMb, `<= ${b.targetMb}`, b.met);
    check(`each worker beyond the first: tree's Pss growth / (N-1) (MB), --workers ${b.workers}`, b.pssMb, `<= ${b.targetMb}`, b.pssMet);
  }
  for (const [name, floor] of Object.entries(f.floors)) {
    if (!floor) continue;
    const target = TARGETS.floorRatio[name];
    const rps = floor.foodapiVsFloor.rpsRatio;
    check(`${name} / its floor, req/s (interleaved, median)`, rps, target === undefined ? "(reported)" : `>= ${target}`, target === undefined ? null : atLeast(rps, target));
    if (target !== undefined) {
      const p99 = floor.foodapiVsFloor.p99Ratio;
      check(`${name} p99 / its floor's p99`, p99, `<= ${TARGETS.floorP99Factor}`, atMost(p99, TARGETS.floorP99Factor));
    }
  }
  const floorPeak = Math.max(0, ...Object.values(f.floors).flatMap((floor) => (floor ? [floor.foodapi.peakRssPerProcessMb] : [])));
  if (floorPeak > 0) check("peak RSS per worker, floor workloads (lookup, analysis, details of 2,000 foods) (MB)", floorPeak, `<= ${TARGETS.rssMbPerWorker}`, floorPeak <= TARGETS.rssMbPerWorker);

  const totalSeconds = round((performance.now() - f.runStarted) / 1000, 1);
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "", bun: Bun.version, wrk: f.wrkVersion };
  const results = {
    startedAt: new Date(Date.now() - totalSeconds * 1000).toISOString(),
    totalSeconds,
    machine,
    settings: { threads: THREADS, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, freshServerPerWorkload: true, serverFlags: SERVER_LIMIT_FLAGS },
    binary: { path: f.binary.path, bytes: f.binary.bytes, mb },
    pageTouch: f.pageTouch,
    firstStart: { ...f.firstStart, args: "serve --cache-dir <fresh>" },
    coldStart: { ...f.coldStart, args: "serve (defaults)", workers1: f.coldStartOneWorker, newDataDirectory: f.coldStartNewData },
    import: f.imported,
    sizes: f.sizes,
    ceilings,
    workloads: { oneWorker: workloads1, metrics: { off: f.metrics.a, on: f.metrics.b, rounds: f.metrics.rounds, ratioOnToOff: metricsRatio, cpuPerRequestOffToOn: metricsCpuRatio }, twoWorkers: workloads2, postgresRedis: workloadsStores ?? { skipped: (f.stores as { skipped: string }).skipped } },
    floors: f.floors,
    workersMemory: f.workersMemory,
    targets,
    notes: f.notes,
  };
  writeFileSync(join(ROOT, "bench/results.json"), JSON.stringify(results, null, 2) + "\n");

  const rows: string[][] = [["workload (wrk -t2 -c64 -d" + SECONDS + "s)", "req/s", "p50 ms", "p99 ms", "non2xx/sockerr", "peak RSS MB", "CPU µs/req", "x ceiling", "p99 x ceil", "gain w2", "x SQLite"]];
  rows.push(...Object.values(ceilings).map((c) => row(c, true)));
  for (const m of Object.values(workloads1)) rows.push(row(m));
  for (const m of [f.metrics.a, f.metrics.b]) rows.push(row(withRatio(m, ceilings.search)));
  for (const m of Object.values(workloads2)) rows.push(row(m));
  for (const m of Object.values(workloadsStores ?? {})) rows.push(row(m));

  const { firstStart: first, coldStart: cold, coldStartOneWorker: cold1, sizes } = f;
  const out: string[] = [];
  out.push(`foodapi bench: ${machine.cpus} CPUs (${machine.cpuModel}), bun ${Bun.version}, ${f.wrkVersion.split(" [")[0]}`);
  out.push(
    `binary ${mb} MiB; first start (catalog expanded) median ${first.medianMs} ms (${first.runsMs.join(", ")}); cold start median ${cold.medianMs} ms (${cold.runsMs.join(", ")}; every route ${cold.everyRoute.medianMs}; the bare start's ${cold.ceiling.medianMs}), with --workers 1 ${cold1.medianMs} ms (${cold1.runsMs.join(", ")}; every route ${cold1.everyRoute.medianMs}); SR28 import ${f.imported.importSeconds} s (median of ${IMPORT_RUNS})`,
  );
  out.push(`typical sizes: search page ${sizes.searchPageBytes} B, detail median ${sizes.detailMedianBytes} B (of ${sizes.sample}), mix median ${sizes.mixMedianBytes} B, nutrient mix median ${sizes.nutrientMixMedianBytes} B, healthz ${sizes.healthzBytes} B`);
  out.push("");
  out.push(table(rows));
  out.push("ceilings (same wrk client and body size as the workloads they are compared with): search & trial vs 'ceiling search page'; mix vs 'ceiling search mix'; nutrient mix vs 'ceiling nutrient search mix'; detail vs 'ceiling food detail'; detail as a browser / gzip-only client gets it vs 'ceiling food detail as a browser gets it' / 'as gzip'; healthz vs 'ceiling healthz'");
  out.push(`peak RSS per process, VmHWM (anon part) MB: ${apiMeasurements.map((m) => `${m.label.replace(/ \([^)]*\)/, "")} ${m.peakRssPerProcessMb} (${m.peakAnonRssPerProcessMb})`).join("; ")}`);
  out.push("", "Each route against its floor (bench/floor.ts) and the ceiling, interleaved; CPU x floor is foodapi's server CPU per request over the floor's:");
  out.push(table(floorTable(f.floors)));
  const workersTables = workersMemoryTables(f.workersMemory);
  out.push("", "Workers' memory after warm-up loads (bench/lib/workers-memory.ts), /proc/<pid>/smaps_rollup:");
  out.push(table(workersTables.processes), "", table(workersTables.beyondFirst));
  out.push("");
  out.push(table([["target", "value", "target", "result"], ...targets.map((t) => [t.name, t.value === null ? "-" : String(t.value), t.target, t.pass === null ? "" : t.pass ? "met" : "NOT met"])]));
  if ("skipped" in f.stores) out.push("", `PostgreSQL + Redis mode skipped: ${f.stores.skipped}`);
  if (f.notes.length) out.push("", ...f.notes.map((n) => `note: ${n}`));
  out.push("", `total ${totalSeconds} s; wrote bench/results.json`);
  console.log(out.join("\n"));
}

const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? "-" : n.toFixed(digits));

function row(m: Compared, isCeiling = false): string[] {
  const socketErrors = m.socketErrors.connect + m.socketErrors.read + m.socketErrors.write + m.socketErrors.timeout;
  return [
    m.label,
    fmt(m.requestsPerSecond, 0),
    fmt(m.p50Ms, 2),
    fmt(m.p99Ms, 2),
    m.non2xx + socketErrors === 0 ? "0" : `${m.non2xx}/${socketErrors}`,
    fmt(m.peakTotalRssMb, 1),
    fmt(m.serverCpuMicrosPerRequest, 1),
    isCeiling ? "-" : fmt(m.ratioToCeiling, 2),
    isCeiling ? "-" : fmt(m.p99ToCeilingP99, 2),
    m.gainOverOneWorker === undefined ? "" : fmt(m.gainOverOneWorker, 2),
    m.ratioToSqlite === undefined ? "" : fmt(m.ratioToSqlite, 2),
  ];
}

export function printTable(title: string, rows: string[][]): void {
  console.log(`${title}\n${table(rows)}`);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows
    .map((r, i) => {
      const line = r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
      return i === 0 ? `${line}\n${widths.map((w) => "-".repeat(w)).join("  ")}` : line;
    })
    .join("\n");
}
