/**
 * bench/run: what one small machine can serve, against the physical ceiling measured on the same machine in
 * the same run. Started by `bench/run` (which builds dist/foodapi first unless BENCH_SKIP_BUILD=1).
 *
 * 1. Copies dist/foodapi to a temporary directory (a concurrent rebuild cannot change it mid-run) and records
 *    its size.
 * 2. Start times, exec to the first 200 on /healthz: first start, median of FIRST_START_RUNS (a fresh
 *    --cache-dir each time: the embedded catalog is expanded into it), then later starts, median of
 *    LATER_START_RUNS ("cold start", the bench's cache directory, where one unmeasured start expanded it,
 *    and one data directory made before, as a restart reopens it), by default and with
 *    `--workers 1`; each default later start right after one of the start's ceiling (bench/start-ceiling.ts).
 * 3. SR28 import time: bench/import (median of BENCH_IMPORT_RUNS, default 3).
 * 4. Typical response sizes from a running server; each workload's ceiling (bench/ceiling.ts) answers with a
 *    body of that size and is driven by the same wrk client as the workload (path, key header, Lua script).
 * 5. Workloads with wrk (-t2 -c64 --latency), each on a fresh server and data directory, with `--workers 1`:
 *    /healthz, repeated search, a 1,000-query mix, a 1,000-query mix of nutrient-sorted and -filtered
 *    searches and random food details (all bench/paths.lua over generated path lists), each interleaved
 *    with its ceiling (both servers up, taking the load in turn: ROUNDS rounds of BENCH_SECONDS / ROUNDS
 *    seconds each, the ratio the median of the rounds'); search with an exhausted trial token; the metrics' cost: repeated search on two servers at once, without and with
 *    --metrics-token, taking the load in turn in short slices (BENCH_METRICS_ROUNDS rounds, default 10, of
 *    2 s each), as the median of the rounds' ratios; then search, mix and detail with `--workers 2`.
 * 6. PostgreSQL + Redis (skipped, saying why, where either is not installed): a throwaway PostgreSQL and Redis
 *    on loopback; repeated search and random detail with `--workers 1 --state-url … --redis-url …` against a
 *    SQLite server, both up, taking the load in turn (the median of the rounds' ratios); then two instances
 *    (two binaries, two ports) sharing them, one wrk
 *    (-t1 -c32) against each at once, summed.
 * 7. Each measured route against its floor (bench/floor.ts, decisions §18) and the ceiling, interleaved:
 *    search, detail (plain, gzip, zstd), the lookup, and the analysis (cold 20-line recipes, with 64
 *    connections and with one, and one recipe repeated); bench/lib/floors.ts.
 * 8. The workers' memory: `--workers` 1, 2 and 4, each warmed by a short load, then every process's
 *    /proc/<pid>/smaps_rollup (private against shared) and what each worker beyond the first adds;
 *    bench/lib/workers-memory.ts.
 * Prints a table and writes bench/results.json (bench/lib/report.ts). Exit 0 whether or not targets are met;
 * non-zero when the harness itself fails (a server does not start, wrk is missing and cannot be installed,
 * wrk fails).
 *
 * Settings: BENCH_SECONDS (10 per workload), BENCH_WARMUP_SECONDS (2, unmeasured, before each), BENCH_IMPORT_RUNS (3),
 * BENCH_BINARY (dist/foodapi), BENCH_ONLY=floor (only step 7, into bench/results-floor.json), BENCH_WORKLOADS
 * (which of step 7's workloads, comma-separated), BENCH_ONLY=workers (only step 8, into bench/results-workers.json),
 * BENCH_ONLY=starts (only step 2, into bench/results-starts.json).
 * Loopback only; every load is bounded by wrk's duration and a hard timeout.
 */
import { copyFileSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ROOT } from "../test/helpers/paths";
import { bodyBytes, importTime, trialToken } from "./lib/figures";
import { floorTable, measureFloors, selectedFloorWorkloads } from "./lib/floors";
import { type Food, mixPaths, nutrientMixPaths, readFoods, readNutrientValues, shuffledFoodNumbers } from "./lib/inputs";
import { median, round } from "./lib/numbers";
import { pageTouchCost } from "./lib/page-touch";
import { cleanEnv, cleanup, cleanUpOnSignals, tempDir } from "./lib/processes";
import { type Figures, printTable, report, type Starts, type StartTimes } from "./lib/report";
import { benchCacheDir, coldStartMs, coldStartTimes, compileStartCeiling, onServer, onServers, type Server, type StoreUrls, startCeiling, startFoodapi } from "./lib/servers";
import { BROWSER_ACCEPT_ENCODING, FIRST_START_RUNS, LATER_START_RUNS, METRICS_ROUNDS, METRICS_SLICE_SECONDS, MIX_QUERIES, ROUNDS, SEARCH_PATH, SECONDS } from "./lib/settings";
import { startStoreServers } from "./lib/stores";
import { measureWorkersMemory, type PathFiles, workersMemoryTables } from "./lib/workers-memory";
import { ensureWrk, type Interleaved, measure, measureInterleaved, measureTogether, type WrkClient, wrkVersion } from "./lib/wrk";

cleanUpOnSignals();

/**
 * `runs` start times (ms) of `binary serve ...args` and their median; with `ceiling` (compileStartCeiling),
 * each one right after a start of the bare compiled server, so that both see the machine in the same state.
 */
async function starts(binary: string, runs: number, args: () => string[], dataDir?: string): Promise<Starts>;
async function starts(binary: string, runs: number, args: () => string[], dataDir: string, ceiling: string): Promise<Starts & { ceiling: StartTimes }>;
async function starts(binary: string, runs: number, args: () => string[], dataDir?: string, ceiling?: string): Promise<Starts & { ceiling?: StartTimes }> {
  const runsMs: number[] = [];
  const everyRouteMs: number[] = [];
  const ceilingMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (ceiling !== undefined) ceilingMs.push(round((await coldStartTimes(ceiling, [])).ms, 1));
    const times = await coldStartTimes(binary, args(), dataDir);
    runsMs.push(round(times.ms, 1));
    everyRouteMs.push(round(times.everyRouteMs, 1));
  }
  const measured = { runsMs, medianMs: round(median(runsMs), 1), everyRoute: { runsMs: everyRouteMs, medianMs: round(median(everyRouteMs), 1) } };
  return ceiling === undefined ? measured : { ...measured, ceiling: { runsMs: ceilingMs, medianMs: round(median(ceilingMs), 1) } };
}

/** The 1,000-query mix and every food's detail (in the fixed shuffled order), one path a line for bench/paths.lua. */
function writePathFiles(foods: Food[]): PathFiles & { paths: string[]; foodNumbers: string[] } {
  const inputs = tempDir("foodapi-bench-inputs-");
  const paths = mixPaths(foods);
  const foodNumbers = shuffledFoodNumbers(foods);
  const files = { mix: join(inputs, "mix-paths.txt"), detail: join(inputs, "detail-paths.txt") };
  writeFileSync(files.mix, paths.join("\n") + "\n");
  writeFileSync(files.detail, foodNumbers.map((n) => `/v1/foods/${n}`).join("\n") + "\n");
  return { ...files, paths, foodNumbers };
}

/** `serve` as shipped runs one worker per core; every "one worker" figure runs it so. */
const oneWorkerArgs = ["--workers", "1"];

const keyed = (server: { key: string }): WrkClient => ({ headers: [`X-API-Key: ${server.key}`] });
const scripted = (server: { key: string }, env: Record<string, string>): WrkClient => ({ script: join(ROOT, "bench/paths.lua"), env: { ...env, BENCH_API_KEY: server.key } });

/**
 * One workload on foodapi with PostgreSQL + Redis (`urls`) against a SQLite foodapi up at the same time, the
 * two taking the load in turn (as the floors do): measured minutes apart, the two would differ by the
 * machine's drift as much as by the stores. The PostgreSQL + Redis side, with the medians of the rounds' ratios.
 */
async function storesAgainstSqlite(wrkPath: string, binary: string, urls: StoreUrls, label: string, path: string, client: (server: Server & { key: string }) => WrkClient) {
  const sqlite = await startFoodapi(binary, oneWorkerArgs);
  try {
    return await onServer(
      binary,
      oneWorkerArgs,
      async (s) => {
        const r = await measureInterleaved(wrkPath, [label, `${label} [PostgreSQL + Redis]`], [sqlite, s], path, [client(sqlite), client(s)], ROUNDS, Math.max(1, Math.round(SECONDS / ROUNDS)));
        return { ...r.b, versusSqlite: { requestsPerSecond: r.rpsRatio, cpuPerRequest: r.cpuRatio, p99: r.p99Ratio } };
      },
      urls,
    );
  } finally {
    await sqlite.stop();
  }
}

/** Step 2: the first start, the later starts (with the start's ceiling beside the default's), and a start making a new data directory. */
async function measureStarts(binary: string) {
  // The machine's state for starts, as the ceilings' CPU a request is for the loads: a fresh page's price.
  const pageTouch = pageTouchCost();
  console.error(`bench: a fresh page's first write ${pageTouch.faultedMicros} µs (mapped ahead ${pageTouch.populatedMicros}, again ${pageTouch.againMicros})`);
  // Cold start (after one unmeasured `version` exec, so the fresh copy is in the page cache).
  Bun.spawnSync([binary, "version"], { env: cleanEnv(), stdout: "ignore", stderr: "ignore" });
  // First start: a fresh cache directory each time, so the catalog is expanded into it every time.
  const firstStart = await starts(binary, FIRST_START_RUNS, () => ["--cache-dir", tempDir("foodapi-bench-cache-")]);
  console.error(`bench: first start (expansion included) ${firstStart.runsMs.join(", ")} ms (median ${firstStart.medianMs})`);
  // Every later start, and every workload's server, uses the bench's own cache directory; this start expands
  // the catalog there, unmeasured, so that no measured one does (nor shows its peak memory).
  // It also makes the data directory every later start reopens, as a restart of a server does.
  const laterArgs = ["--cache-dir", benchCacheDir(binary)];
  const laterDataDir = tempDir("foodapi-bench-cold-");
  await coldStartMs(binary, laterArgs, laterDataDir);
  // Each after a start of the bare compiled server: what the machine charges for starting a compiled Bun.
  const coldStart = await starts(binary, LATER_START_RUNS, () => laterArgs, laterDataDir, compileStartCeiling());
  console.error(`bench: cold start ${coldStart.runsMs.join(", ")} ms (median ${coldStart.medianMs}; every route ${coldStart.everyRoute.medianMs})`);
  console.error(`bench: the start's ceiling (bench/start-ceiling.ts, compiled) ${coldStart.ceiling.runsMs.join(", ")} ms (median ${coldStart.ceiling.medianMs})`);
  const coldStartOneWorker = { ...(await starts(binary, LATER_START_RUNS, () => [...oneWorkerArgs, ...laterArgs], laterDataDir)), args: oneWorkerArgs };
  console.error(`bench: cold start --workers 1: ${coldStartOneWorker.runsMs.join(", ")} ms (median ${coldStartOneWorker.medianMs}; every route ${coldStartOneWorker.everyRoute.medianMs})`);
  // A start that makes a new data directory (its state database, with the fsyncs that makes it durable).
  const coldStartNewData = { ...(await starts(binary, LATER_START_RUNS, () => [...oneWorkerArgs, ...laterArgs])), args: oneWorkerArgs };
  console.error(`bench: cold start --workers 1, new data directory: ${coldStartNewData.runsMs.join(", ")} ms (median ${coldStartNewData.medianMs})`);
  return { pageTouch, firstStart, coldStart, coldStartOneWorker, coldStartNewData };
}

async function main() {
  const runStarted = performance.now();
  const wrkPath = ensureWrk();
  const wrk = wrkVersion(wrkPath);
  const notes: string[] = [];

  // The binary, copied so that a concurrent `build.sh` cannot swap it during the run.
  const source = resolve(process.env.BENCH_BINARY ?? join(ROOT, "dist/foodapi"));
  const binary = join(tempDir("foodapi-bench-bin-"), "foodapi");
  copyFileSync(source, binary);

  // BENCH_ONLY=floor: only the floor workloads (BENCH_WORKLOADS picks some), into bench/results-floor.json.
  if (process.env.BENCH_ONLY === "floor") {
    const floors = await measureFloors(wrkPath, binary, shuffledFoodNumbers(readFoods()), selectedFloorWorkloads());
    writeFileSync(join(ROOT, "bench/results-floor.json"), JSON.stringify({ wrkVersion: wrk, seconds: SECONDS, floors }, null, 2) + "\n");
    printTable("Each route against its floor and the ceiling, interleaved (bench/results-floor.json)", floorTable(floors));
    return;
  }

  // BENCH_ONLY=workers: only the workers' memory, into bench/results-workers.json.
  if (process.env.BENCH_ONLY === "workers") {
    const startedAt = new Date().toISOString();
    const workersMemory = await measureWorkersMemory(wrkPath, binary, writePathFiles(readFoods()));
    const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "", bun: Bun.version, wrk };
    writeFileSync(join(ROOT, "bench/results-workers.json"), JSON.stringify({ startedAt, machine, workersMemory }, null, 2) + "\n");
    const tables = workersMemoryTables(workersMemory);
    printTable("Workers' memory after warm-up loads (bench/lib/workers-memory.ts), /proc/<pid>/smaps_rollup (bench/results-workers.json)", tables.processes);
    printTable("", tables.beyondFirst);
    console.log(`load average (1, 5, 15 min): ${workersMemory.loadAverage.before.join(", ")} before, ${workersMemory.loadAverage.after.join(", ")} after; the start before (the catalog expanded into a fresh cache directory) ${workersMemory.preparingStartMs} ms`);
    return;
  }
  // BENCH_ONLY=starts: only the starts, into bench/results-starts.json.
  if (process.env.BENCH_ONLY === "starts") {
    const startedAt = new Date().toISOString();
    writeFileSync(join(ROOT, "bench/results-starts.json"), JSON.stringify({ startedAt, loadAverage: loadavg(), ...(await measureStarts(binary)) }, null, 2) + "\n");
    return;
  }
  // BENCH_ONLY=stores: only the PostgreSQL + Redis mode's one-instance rows against SQLite, into bench/results-stores.json.
  if (process.env.BENCH_ONLY === "stores") {
    const storeServers = await startStoreServers();
    if ("skipped" in storeServers) throw new Error(`BENCH_ONLY=stores: ${storeServers.skipped}`);
    try {
      const detailEnv = { BENCH_PATHS_FILE: writePathFiles(readFoods()).detail };
      const startedAt = new Date().toISOString();
      const search = await storesAgainstSqlite(wrkPath, binary, storeServers.urls, "search q=chicken&limit=20", SEARCH_PATH, keyed);
      const detail = await storesAgainstSqlite(wrkPath, binary, storeServers.urls, "GET /v1/foods/{n} random", "/v1/foods/{n}", (s) => scripted(s, detailEnv));
      writeFileSync(join(ROOT, "bench/results-stores.json"), JSON.stringify({ startedAt, loadAverage: loadavg(), search, detail }, null, 2) + "\n");
    } finally {
      await storeServers.stop();
    }
    return;
  }
  if (process.env.BENCH_ONLY !== undefined && process.env.BENCH_ONLY !== "") throw new Error(`BENCH_ONLY: unknown ${process.env.BENCH_ONLY} (known: floor, workers, starts, stores)`);

  const { pageTouch, firstStart, coldStart, coldStartOneWorker, coldStartNewData } = await measureStarts(binary);

  const imported = await importTime();

  // Inputs: the 1,000-query mix and every food's detail, in a fixed shuffled order.
  const foods = readFoods();
  const pathFiles = writePathFiles(foods);
  const { paths, foodNumbers } = pathFiles;
  const nutrientPaths = nutrientMixPaths(foods, readNutrientValues());
  const nutrientPathsFile = join(dirname(pathFiles.mix), "nutrient-mix-paths.txt");
  writeFileSync(nutrientPathsFile, nutrientPaths.join("\n") + "\n");
  const nutrientMixEnv = { BENCH_PATHS_FILE: nutrientPathsFile };
  const mixEnv = { BENCH_PATHS_FILE: pathFiles.mix };
  const detailEnv = { BENCH_PATHS_FILE: pathFiles.detail };
  // The same details for a browser (Chrome's and Firefox's Accept-Encoding: it gets the stored zstd) and
  // for a gzip-only client (Python requests, Go net/http: the stored gzip).
  const detailBrowserEnv = { ...detailEnv, BENCH_ACCEPT_ENCODING: BROWSER_ACCEPT_ENCODING };
  const detailGzipEnv = { ...detailEnv, BENCH_ACCEPT_ENCODING: "gzip" };

  // Typical sizes, from a running server.
  const sizes = await onServer(binary, oneWorkerArgs, async (server) => {
    const healthz = await bodyBytes(`${server.url}/healthz`);
    const search = await bodyBytes(`${server.url}${SEARCH_PATH}`, server.key);
    const detailSample: number[] = [];
    const detailBrowserSample: number[] = [];
    const detailGzipSample: number[] = [];
    for (const n of foodNumbers.slice(0, 200)) {
      detailSample.push(await bodyBytes(`${server.url}/v1/foods/${n}`, server.key));
      detailBrowserSample.push(await bodyBytes(`${server.url}/v1/foods/${n}`, server.key, BROWSER_ACCEPT_ENCODING));
      detailGzipSample.push(await bodyBytes(`${server.url}/v1/foods/${n}`, server.key, "gzip"));
    }
    const mixSample: number[] = [];
    for (const p of paths.slice(0, 200)) mixSample.push(await bodyBytes(`${server.url}${p}`, server.key));
    const nutrientMixSample: number[] = [];
    for (const p of nutrientPaths.slice(0, 200)) nutrientMixSample.push(await bodyBytes(`${server.url}${p}`, server.key));
    return {
      healthzBytes: healthz,
      searchPageBytes: search,
      detailMedianBytes: Math.round(median(detailSample)),
      detailSampleMinMax: [Math.min(...detailSample), Math.max(...detailSample)],
      detailBrowserMedianBytes: Math.round(median(detailBrowserSample)),
      detailGzipMedianBytes: Math.round(median(detailGzipSample)),
      mixMedianBytes: Math.round(median(mixSample)),
      nutrientMixMedianBytes: Math.round(median(nutrientMixSample)),
      sample: 200,
      mixPathsExample: paths.slice(0, 8),
      nutrientMixPathsExample: nutrientPaths.slice(0, 8),
    };
  });
  console.error(`bench: sizes: healthz ${sizes.healthzBytes} B, search page ${sizes.searchPageBytes} B, detail median ${sizes.detailMedianBytes} B, mix median ${sizes.mixMedianBytes} B`);

  // Ceilings, each driven by the same wrk client as the workloads compared with it (same path, header or
  // Lua script): on two cores wrk's own CPU use is part of the picture, and a scripted client costs more.
  const ceilingClient = { key: "fnk_ceiling" };

  // Each one-worker workload runs interleaved with its ceiling (bench/lib/wrk.ts measureInterleaved): both
  // servers up at once, taking the load in turn in slices, the ratio the median of the rounds' ratios. Run
  // one after the other, a workload and its ceiling could land on different speeds of a shared machine.
  const compared = async (ceilingLabel: string, bytes: number, label: string, path: string, client: (server: { key: string }) => WrkClient = () => ({})) => {
    const ceilingServer = await startCeiling(bytes);
    try {
      return await onServer(binary, oneWorkerArgs, async (s) => {
        const r = await measureInterleaved(wrkPath, [`ceiling ${ceilingLabel} (${bytes} B)`, label], [ceilingServer, s], path, [client(ceilingClient), client(s)], ROUNDS, Math.max(1, Math.round(SECONDS / ROUNDS)));
        return { ceiling: { ...r.a, bodyBytes: bytes }, workload: r.b, ratio: { requestsPerSecond: r.rpsRatio, p99: r.p99Ratio } };
      });
    } finally {
      await ceilingServer.stop();
    }
  };
  const healthz = await compared("healthz", Math.max(16, sizes.healthzBytes), "GET /healthz", "/healthz");
  const search = await compared("search page", sizes.searchPageBytes, "search q=chicken&limit=20", SEARCH_PATH, keyed);
  const mix = await compared("search mix, paths.lua", sizes.mixMedianBytes, `search mix (${MIX_QUERIES} queries)`, "/v1/foods", (s) => scripted(s, mixEnv));
  const nutrientMix = await compared("nutrient search mix, paths.lua", sizes.nutrientMixMedianBytes, `nutrient search mix (${MIX_QUERIES} queries)`, "/v1/foods", (s) => scripted(s, nutrientMixEnv));
  const detail = await compared("food detail, paths.lua", sizes.detailMedianBytes, "GET /v1/foods/{n} random", "/v1/foods/{n}", (s) => scripted(s, detailEnv));
  const detailBrowser = await compared(
    "food detail as a browser gets it, paths.lua",
    sizes.detailBrowserMedianBytes,
    `GET /v1/foods/{n} random, Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`,
    "/v1/foods/{n}",
    (s) => scripted(s, detailBrowserEnv),
  );
  const detailGzip = await compared("food detail as gzip, paths.lua", sizes.detailGzipMedianBytes, "GET /v1/foods/{n} random, Accept-Encoding: gzip", "/v1/foods/{n}", (s) => scripted(s, detailGzipEnv));
  const pairs = { healthz, search, mix, nutrientMix, detail, detailBrowser, detailGzip };
  const pick = <K extends "ceiling" | "workload" | "ratio">(k: K) =>
    Object.fromEntries(Object.entries(pairs).map(([name, pair]) => [name, pair[k]])) as { [N in keyof typeof pairs]: (typeof pairs)[N][K] };
  const ceilings = pick("ceiling");
  const oneWorker = pick("workload");
  const ratios = pick("ratio");

  // Workloads on a fresh server and data directory each (no state left by the one before).
  const workload = (workers: number, label: string, path: string, client: (server: Server & { key: string }) => WrkClient = () => ({})) =>
    onServer(binary, ["--workers", String(workers)], (s) => measure(wrkPath, `${label}${workers > 1 ? ` [--workers ${workers}]` : ""}`, s, path, client(s)));

  // A trial token past its quota: refused from memory. The quota is read back from the server's
  // RateLimit-Policy header, so the label says what was measured.
  const trial = await onServer(binary, oneWorkerArgs, async (s) => {
    const token = await trialToken(s.url);
    const probe = await fetch(`${s.url}${SEARCH_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    await probe.arrayBuffer();
    const quota = Number(/"trial";q=(\d+)/.exec(probe.headers.get("ratelimit-policy") ?? "")?.[1] ?? NaN);
    if (probe.status !== 200 || !Number.isFinite(quota)) throw new Error(`trial token probe: ${probe.status}, RateLimit-Policy ${probe.headers.get("ratelimit-policy")}`);
    const label = `search, trial token (quota-exhausted path after ${quota})`;
    return { ...(await measure(wrkPath, label, s, SEARCH_PATH, { headers: [`Authorization: Bearer ${token}`] })), trialQuota: quota };
  });

  // The metrics' cost on the hot path: the same search on two servers at once, without and with
  // --metrics-token (counting every request), taking the load in turn (bench/lib/wrk.ts measureInterleaved).
  const metricsArgs = [...oneWorkerArgs, "--metrics-token", "bench-metrics-token-0123456789"];
  const metricsOff = await startFoodapi(binary, oneWorkerArgs);
  let metrics: Interleaved;
  try {
    const metricsOn = await startFoodapi(binary, metricsArgs);
    try {
      metrics = await measureInterleaved(wrkPath, ["metrics off", "metrics on"], [metricsOff, metricsOn], SEARCH_PATH, [keyed(metricsOff), keyed(metricsOn)], METRICS_ROUNDS, METRICS_SLICE_SECONDS);
    } finally {
      await metricsOn.stop();
    }
  } finally {
    await metricsOff.stop();
  }

  const twoWorkers = {
    search: await workload(2, "search q=chicken&limit=20", SEARCH_PATH, keyed),
    mix: await workload(2, `search mix (${MIX_QUERIES} queries)`, "/v1/foods", (s) => scripted(s, mixEnv)),
    detail: await workload(2, "GET /v1/foods/{n} random", "/v1/foods/{n}", (s) => scripted(s, detailEnv)),
  };
  const floors = await measureFloors(wrkPath, binary, foodNumbers, selectedFloorWorkloads());
  const workersMemory = await measureWorkersMemory(wrkPath, binary, pathFiles);

  notes.push("rows without [--workers 2] ran with --workers 1; 'peak RSS MB' sums every process of the server (primary and workers)");

  // PostgreSQL + Redis (decisions §11): repeated search and random detail with the state in PostgreSQL and
  // the counters in Redis, --workers 1, interleaved with the SQLite mode's same workloads; then two
  // instances on two ports sharing them. Their own throwaway servers, stopped at the end of the mode.
  const storeServers = await startStoreServers();
  let stores: Figures["stores"];
  if ("skipped" in storeServers) {
    console.error(`bench: skipping the PostgreSQL + Redis mode: ${storeServers.skipped}`);
    stores = { skipped: storeServers.skipped };
  } else {
    try {
      const { urls } = storeServers;
      const oneInstance = (label: string, path: string, client: (server: Server & { key: string }) => WrkClient) => storesAgainstSqlite(wrkPath, binary, urls, label, path, client);
      const twoInstances = (label: string, path: string, client: (server: Server & { key: string }) => WrkClient) =>
        onServers(binary, 2, oneWorkerArgs, urls, (servers) => measureTogether(wrkPath, `${label} [PostgreSQL + Redis, 2 instances]`, servers, path, client(servers[0]!)));
      stores = {
        search: await oneInstance("search q=chicken&limit=20", SEARCH_PATH, keyed),
        detail: await oneInstance("GET /v1/foods/{n} random", "/v1/foods/{n}", (s) => scripted(s, detailEnv)),
        twoInstances: {
          search: await twoInstances("search q=chicken&limit=20", SEARCH_PATH, keyed),
          detail: await twoInstances("GET /v1/foods/{n} random", "/v1/foods/{n}", (s) => scripted(s, detailEnv)),
        },
      };
    } finally {
      await storeServers.stop();
    }
    notes.push(
      "[PostgreSQL + Redis] rows: --workers 1, --state-url and --redis-url naming a throwaway PostgreSQL and Redis on this machine (loopback), whose CPU comes out of the same cores; 'x SQLite' is the median of the rounds' ratios to a SQLite foodapi (--workers 1) up at the same time, the two taking the load in turn; the two-instance rows' is to the --workers 1 row above; 'peak RSS MB' is foodapi's alone",
    );
    notes.push(
      `[PostgreSQL + Redis, 2 instances] rows: two binaries (--workers 1 each) on two ports sharing that PostgreSQL, that Redis and one key, one wrk (-t1 -c32) against each at once, req/s summed, p50/p99 the worse of the two; they share this machine's ${cpus().length} cores with each other, PostgreSQL, Redis and wrk, so this is not a scaling figure`,
    );
  }

  report({
    runStarted,
    wrkVersion: wrk,
    binary: { path: source, bytes: statSync(binary).size },
    pageTouch,
    firstStart,
    coldStart,
    coldStartOneWorker,
    coldStartNewData,
    imported,
    sizes,
    ceilings,
    oneWorker,
    ratios,
    trial,
    metrics,
    twoWorkers,
    stores,
    floors,
    workersMemory,
    notes,
  });
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
