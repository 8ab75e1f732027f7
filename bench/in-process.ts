/**
 * bench/in-process: what foodapi's own code costs a request against its floor's (bench/floor.ts), without
 * sockets, wrk or the kernel. Each side runs in a process of its own, started as it is served (foodapi's
 * `serve`, from source; the floor's script), except that Bun.serve is replaced before it starts so that its
 * `fetch` handler is caught instead of listening; that handler is then called on prepared requests in a
 * loop. Over the network the same difference is a few per cent of a request, inside what one run of
 * `bench/run` moves by; here it is a few tenths of a microsecond: the figure to follow when a change to the
 * hot path is small (docs/performance.md, "The floor").
 *
 * What the loop does not have, on both sides alike: no network, no response written, no timers while a
 * round runs (a round never yields), so the young collection a server runs every 100 ms
 * (src/platform/http/young-collection.ts) is an eden collection every INPROCESS_EDEN_EVERY requests instead.
 *
 * Usage: bun bench/in-process.ts   (after build.sh: the source embeds dist/ files; uses dist/foodapi to
 * prepare the floor's answers and the key). Settings (bench/lib/settings.ts): BENCH_WORKLOADS (of search,
 * detail, detailGzip, detailZstd; all when unset), BENCH_INPROCESS_RUNS (processes per side and workload).
 * Loopback only; each process is bounded by INPROCESS_ROUNDS x INPROCESS_REQUESTS_PER_ROUND requests and
 * ROUNDS_SECONDS_MAX seconds of rounds.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../test/helpers/paths";
import { floorAnswersFrom } from "./lib/floor-answers";
import { GET_WORKLOADS, type GetWorkload, getPlans, planTargets, writeDetailPaths } from "./lib/get-workloads";
import { readFoods, shuffledFoodNumbers } from "./lib/inputs";
import { median, round } from "./lib/numbers";
import { cleanEnv, cleanup, cleanUpOnSignals, tempDir, track } from "./lib/processes";
import { printTable } from "./lib/report";
import { benchCacheDir } from "./lib/servers";
import {
  INPROCESS_EDEN_EVERY,
  INPROCESS_REQUESTS_PER_ROUND,
  INPROCESS_ROUNDS,
  INPROCESS_RUNS,
  INPROCESS_WARM_ROUNDS,
  SERVER_LIMIT_FLAGS,
  selectedWorkloads,
} from "./lib/settings";

const ROUNDS_SECONDS_MAX = 60;
const BINARY = join(ROOT, "dist/foodapi");
const BUN = join(ROOT, "node_modules/.bin/bun");

type Side = "foodapi" | "floor";
/** What a side's process needs: written by the parent, read by each child. */
interface Spec {
  targets: Record<GetWorkload, { paths: string[]; acceptEncoding?: string }>;
  foodapi: { dataDir: string; cacheDir: string; key: string };
  floor: { answersDir: string; key: string };
}

if (process.argv[2] === "--child") await child(process.argv[3] as Side, process.argv[4]!, process.argv[5] as GetWorkload);
else await parent();

async function parent() {
  cleanUpOnSignals();
  try {
    await measureAll();
  } finally {
    cleanup();
  }
}

async function measureAll() {
  const workloads = selectedWorkloads(GET_WORKLOADS);
  const inputs = tempDir("foodapi-bench-inprocess-");
  const { file, foods } = writeDetailPaths(inputs, shuffledFoodNumbers(readFoods()));
  const plans = getPlans(file);
  const targets = {} as Spec["targets"];
  for (const name of GET_WORKLOADS) {
    const { acceptEncoding } = plans[name];
    targets[name] = { paths: planTargets(plans[name], foods), ...(acceptEncoding ? { acceptEncoding } : {}) };
  }
  // The floor's answers from a foodapi of its own, whose data directory (and key) the in-process foodapi
  // then opens: stopped first, so that only one process serves it.
  const answersDir = join(inputs, "answers");
  mkdirSync(answersDir);
  const requests = workloads.flatMap((name) => targets[name].paths.map((target) => ({ method: "GET" as const, target, coding: plans[name].coding })));
  const { key: floorKey, source } = await floorAnswersFrom(BINARY, requests, answersDir);
  const spec: Spec = { targets, foodapi: { dataDir: source.dataDir, cacheDir: benchCacheDir(BINARY), key: source.key }, floor: { answersDir, key: floorKey } };
  const specFile = join(inputs, "spec.json");
  writeFileSync(specFile, JSON.stringify(spec));

  const rows = [["workload", "foodapi µs/request", "floor µs/request", "foodapi - floor µs", "foodapi / floor", "runs"]];
  for (const name of workloads) {
    const means: Record<Side, number[]> = { foodapi: [], floor: [] };
    for (let run = 0; run < INPROCESS_RUNS; run++) {
      // Alternated, so that a drift of the machine favours neither side.
      for (const side of run % 2 === 0 ? (["foodapi", "floor"] as const) : (["floor", "foodapi"] as const)) {
        means[side].push(await runChild(side, specFile, name));
      }
    }
    const a = median(means.foodapi);
    const f = median(means.floor);
    process.stderr.write(`bench: ${name}: foodapi ${means.foodapi.join(", ")}; floor ${means.floor.join(", ")} µs/request\n`);
    rows.push([plans[name].label, String(round(a, 2)), String(round(f, 2)), String(round(a - f, 2)), String(round(a / f, 3)), String(INPROCESS_RUNS)]);
  }
  printTable(`Each side's handler called in process (medians of ${INPROCESS_RUNS} processes, each the mean of ${INPROCESS_ROUNDS - INPROCESS_WARM_ROUNDS} rounds of ${INPROCESS_REQUESTS_PER_ROUND} after ${INPROCESS_WARM_ROUNDS} to warm)`, rows);
}

async function runChild(side: Side, specFile: string, workload: GetWorkload): Promise<number> {
  const proc = track(Bun.spawn([BUN, import.meta.path, "--child", side, specFile, workload], { cwd: ROOT, stdout: "pipe", stderr: "pipe", env: cleanEnv() }));
  const [out, errors, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const line = out.split("\n").find((l) => l.startsWith("{"));
  if (code !== 0 || !line) throw new Error(`bench in-process: the ${side} process for ${workload} failed (exit ${code}): ${errors.slice(-2000)}`);
  return (JSON.parse(line) as { meanUs: number }).meanUs;
}

/** One side in this process: its handler caught, called on the workload's requests; prints one JSON line. */
async function child(side: Side, specFile: string, workload: GetWorkload) {
  const spec = JSON.parse(readFileSync(specFile, "utf8")) as Spec;
  const { edenGC } = await import("bun:jsc");
  type Fetch = (request: Request, server: unknown) => Response | Promise<Response>;
  let fetch: Fetch | undefined;
  const fakeServer = {
    port: 1,
    hostname: "127.0.0.1",
    url: new URL("http://127.0.0.1:1/"),
    requestIP: () => ({ address: "127.0.0.1", family: "IPv4", port: 40000 }),
    stop() {},
  };
  (Bun as unknown as { serve: (options: { fetch: Fetch }) => unknown }).serve = (options) => {
    fetch = options.fetch;
    return fakeServer;
  };
  // The sides write their access logs to stdout: kept out of the result line, and costing what a write to
  // /dev/null would not (nothing).
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;

  const key = side === "foodapi" ? spec.foodapi.key : spec.floor.key;
  if (side === "foodapi") {
    const { parseArgs } = await import("../src/platform/config/args");
    const { COMMANDS } = await import("../src/cli/commands");
    const { loadConfig } = await import("../src/platform/config/config");
    const { serve } = await import("../src/cli/serve");
    const args = ["serve", "--host", "127.0.0.1", "--port", "0", "--workers", "1", "--data-dir", spec.foodapi.dataDir, "--cache-dir", spec.foodapi.cacheDir, ...SERVER_LIMIT_FLAGS];
    void serve(loadConfig(parseArgs(args, COMMANDS).flags, process.env));
  } else {
    process.argv[2] = spec.floor.answersDir;
    await import("./floor");
  }
  for (let waited = 0; fetch === undefined; waited++) {
    if (waited > 3000) throw new Error(`${side} never called Bun.serve`);
    await Bun.sleep(10);
  }
  // foodapi answers once its app is built: the first request waits for it.
  const handle = fetch;
  const { paths, acceptEncoding } = spec.targets[workload];
  const headers: Record<string, string> = { host: "127.0.0.1:1", "x-api-key": key, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) };
  const make = (i: number) => new Request(`http://127.0.0.1:1${paths[i % paths.length]}`, { headers });
  const first = await handle(make(0), fakeServer);
  if (first.status !== 200) throw new Error(`${side} answered ${first.status} to ${paths[0]}`);

  const perRound: number[] = [];
  const requests: Request[] = new Array(INPROCESS_REQUESTS_PER_ROUND);
  const deadline = performance.now() + ROUNDS_SECONDS_MAX * 1000;
  let sent = 1;
  for (let r = 0; r < INPROCESS_ROUNDS && performance.now() < deadline; r++) {
    for (let i = 0; i < INPROCESS_REQUESTS_PER_ROUND; i++) requests[i] = make(sent + i);
    let failed = 0;
    const started = Bun.nanoseconds();
    for (let i = 0; i < INPROCESS_REQUESTS_PER_ROUND; i++) {
      if (i % INPROCESS_EDEN_EVERY === INPROCESS_EDEN_EVERY - 1) edenGC();
      const answered = handle(requests[i]!, fakeServer);
      const response = answered instanceof Promise ? await answered : answered;
      if (response.status !== 200) failed++;
    }
    perRound.push((Bun.nanoseconds() - started) / INPROCESS_REQUESTS_PER_ROUND / 1000);
    if (failed > 0) throw new Error(`${side}: ${failed} requests of round ${r} were not answered 200`);
    sent += INPROCESS_REQUESTS_PER_ROUND;
  }
  if (perRound.length <= INPROCESS_WARM_ROUNDS) throw new Error(`${side}: only ${perRound.length} rounds within ${ROUNDS_SECONDS_MAX} s`);
  const measured = perRound.slice(INPROCESS_WARM_ROUNDS);
  const meanUs = round(measured.reduce((sum, us) => sum + us, 0) / measured.length, 2);
  write(`${JSON.stringify({ side, workload, meanUs, perRound: perRound.map((us) => round(us, 2)) })}\n`);
  process.exit(0);
}
