/**
 * bench/soak: mixed traffic at half the measured capacity for a long while, watching for leaks and errors.
 * Started by `bench/soak` (which builds dist/foodapi first unless BENCH_SKIP_BUILD=1). Not part of CI.
 *
 * 1. One server (the compiled binary, --workers SOAK_WORKERS, a fresh data directory, --metrics-token).
 * 2. Capacity: the mixed traffic at full speed (wrk -t2 -c64, after a 2 s warm-up) for SOAK_CAPACITY_SECONDS.
 * 3. The soak: the same traffic paced to half that rate (bench/paths.lua with BENCH_DELAY_MS: each wrk
 *    connection waits before each request; the number of connections set by a 3 s calibration run) for SOAK_SECONDS, while the RSS of every process of the server
 *    is sampled every SOAK_SAMPLE_SECONDS.
 * 4. The verdict: every process's RSS flat within 10 % (the median of the run's last tenth against the median
 *    of its second tenth, once start-up allocation has settled), and zero 5xx (read from the server's own
 *    /metrics, which counts by status; wrk only counts non-2xx, and the mix holds a few deliberate 404s).
 * Prints a table and writes bench/soak-results.json. Exit 0 whether or not the verdict passes; non-zero when
 * the harness fails.
 *
 * Mixed traffic: the 1,000-query search mix (bench/run's), random food details, food groups, nutrients,
 * /v1/meta and 1 % unknown food numbers (404), in a fixed shuffled order.
 * Settings: SOAK_SECONDS (600), SOAK_WORKERS (2), SOAK_CAPACITY_SECONDS (10), SOAK_SAMPLE_SECONDS (5),
 * BENCH_BINARY (dist/foodapi). Loopback only; every run is bounded by wrk's duration and a hard timeout.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT } from "../test/helpers/paths";
import { parsePrometheusText } from "../test/helpers/prometheus";
import { mixPaths, readFoods, shuffled } from "./lib/inputs";
import { median, round } from "./lib/numbers";
import { cleanup, cleanUpOnSignals, descendants, memoryKb, tempDir } from "./lib/processes";
import { startFoodapi } from "./lib/servers";
import { ensureWrk, wrk } from "./lib/wrk";

cleanUpOnSignals();

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const SOAK_SECONDS = setting("SOAK_SECONDS", 600);
const WORKERS = setting("SOAK_WORKERS", 2);
const CAPACITY_SECONDS = setting("SOAK_CAPACITY_SECONDS", 10);
const SAMPLE_SECONDS = setting("SOAK_SAMPLE_SECONDS", 5);
const METRICS_TOKEN = "soak-metrics-token-0123456789";
/** Each paced connection waits this long before each request; the connection count sets the rate. */
const DELAY_MS = 4;
const RSS_TOLERANCE = 0.1;

function mixedPaths(): string[] {
  const foods = readFoods();
  const searches = mixPaths(foods);
  const details = shuffled(foods, 2017).slice(0, 1500).map((f) => `/v1/foods/${f.number}`);
  const fixed = [...Array(60).fill("/v1/food-groups"), ...Array(60).fill("/v1/nutrients"), ...Array(60).fill("/v1/meta")];
  const missing = Array.from({ length: 27 }, (_, i) => `/v1/foods/9${String(9000 + i).padStart(4, "0")}`);
  return shuffled([...searches, ...details, ...fixed, ...missing], 2018);
}

interface Sample {
  atSeconds: number;
  rssMb: Record<number, number>;
}

async function main() {
  const wrkPath = ensureWrk();
  const binary = join(tempDir("foodapi-soak-bin-"), "foodapi");
  copyFileSync(resolve(process.env.BENCH_BINARY ?? join(ROOT, "dist/foodapi")), binary);
  const pathsFile = join(tempDir("foodapi-soak-inputs-"), "mixed-paths.txt");
  const paths = mixedPaths();
  writeFileSync(pathsFile, `${paths.join("\n")}\n`);

  const server = await startFoodapi(binary, ["--workers", String(WORKERS), "--metrics-token", METRICS_TOKEN]);
  try {
    const script = join(ROOT, "bench/paths.lua");
    const env = { BENCH_PATHS_FILE: pathsFile, BENCH_API_KEY: server.key };
    const url = `${server.url}/v1/foods`;

    process.stderr.write("soak: capacity ... ");
    await wrk(wrkPath, url, 2, { script, env });
    const capacity = (await wrk(wrkPath, url, CAPACITY_SECONDS, { script, env })).result;
    const target = capacity.requestsPerSecond / 2;
    // rate ≈ connections × 1000 / (delay + latency): a first guess with no latency, then corrected by a
    // short paced run.
    const pacedEnv = { ...env, BENCH_DELAY_MS: String(DELAY_MS) };
    const clamp = (n: number) => Math.max(2, Math.min(1000, Math.round(n)));
    const guess = clamp((target * DELAY_MS) / 1000);
    const calibration = (await wrk(wrkPath, url, 3, { script, env: pacedEnv, connections: guess })).result;
    const connections = clamp((guess * target) / Math.max(1, calibration.requestsPerSecond));
    process.stderr.write(`${capacity.requestsPerSecond} req/s; soaking at ~${Math.round(target)} req/s (${connections} connections, ${DELAY_MS} ms apart) for ${SOAK_SECONDS} s\n`);

    const samples: Sample[] = [];
    const started = performance.now();
    const sample = () => {
      const rssMb: Record<number, number> = {};
      for (const pid of [server.pid, ...descendants(server.pid)]) {
        const memory = memoryKb(pid);
        if (memory) rssMb[pid] = round(memory.rss / 1024, 1);
      }
      samples.push({ atSeconds: round((performance.now() - started) / 1000, 1), rssMb });
    };
    sample();
    const timer = setInterval(sample, SAMPLE_SECONDS * 1000);
    let soak;
    try {
      soak = (await wrk(wrkPath, url, SOAK_SECONDS, { script, env: pacedEnv, connections })).result;
    } finally {
      clearInterval(timer);
      sample();
    }

    const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (scraped.status !== 200) throw new Error(`/metrics answered ${scraped.status}`);
    const families = parsePrometheusText(await scraped.text());
    const byStatus = families.get("foodapi_http_requests_total")!.samples;
    const served = byStatus.reduce((sum, s) => sum + s.value, 0);
    const serverErrors = byStatus.filter((s) => Number(s.labels.status) >= 500).reduce((sum, s) => sum + s.value, 0);

    const pids = [...new Set(samples.flatMap((s) => Object.keys(s.rssMb).map(Number)))];
    const tenth = (from: number, to: number) => samples.filter((s) => s.atSeconds >= SOAK_SECONDS * from && s.atSeconds <= SOAK_SECONDS * to);
    const processes = pids.map((pid) => {
      const series = samples.map((s) => s.rssMb[pid]).filter((v): v is number => v !== undefined);
      const settled = round(median(tenth(0.1, 0.2).map((s) => s.rssMb[pid]).filter((v): v is number => v !== undefined)), 1);
      const end = round(median(tenth(0.9, 1.01).map((s) => s.rssMb[pid]).filter((v): v is number => v !== undefined)), 1);
      const growth = settled > 0 ? round(end / settled - 1, 3) : null;
      return {
        pid,
        role: pid === server.pid ? "first process (worker 0)" : "worker",
        startMb: series[0],
        settledMb: settled,
        endMb: end,
        maxMb: Math.max(...series),
        growth,
        flat: growth !== null && Math.abs(growth) <= RSS_TOLERANCE,
        samples: series.length,
      };
    });
    const verdict = { rssFlatWithin10Percent: processes.every((p) => p.flat) && processes.length === WORKERS, zero5xx: serverErrors === 0 && served > 0 };

    const results = {
      startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
      settings: { soakSeconds: SOAK_SECONDS, workers: WORKERS, capacitySeconds: CAPACITY_SECONDS, sampleSeconds: SAMPLE_SECONDS, delayMs: DELAY_MS, connections, distinctPaths: paths.length },
      capacity,
      targetRequestsPerSecond: round(target, 1),
      soak,
      metrics: { requestsCounted: served, serverErrors },
      processes,
      samples,
      verdict,
    };
    writeFileSync(join(ROOT, "bench/soak-results.json"), `${JSON.stringify(results, null, 2)}\n`);

    const out = [
      `soak: ${SOAK_SECONDS} s of mixed traffic (${paths.length} paths) on --workers ${WORKERS}`,
      `capacity ${capacity.requestsPerSecond} req/s (p99 ${capacity.p99Ms} ms); paced at ${soak.requestsPerSecond} req/s (target ${Math.round(target)}), p50 ${soak.p50Ms} ms, p99 ${soak.p99Ms} ms, ${soak.requests} requests, non-2xx ${soak.non2xx} (the mix's deliberate 404s), socket errors ${Object.values(soak.socketErrors).reduce((a, b) => a + b, 0)}`,
      `server's own count: ${served} requests, ${serverErrors} 5xx`,
      "",
      "process                     start MB  settled MB  end MB  max MB  growth  flat",
      ...processes.map((p) =>
        [p.role.padEnd(26), String(p.startMb).padStart(9), String(p.settledMb).padStart(11), String(p.endMb).padStart(7), String(p.maxMb).padStart(7), `${p.growth === null ? "-" : (p.growth * 100).toFixed(1)}%`.padStart(7), p.flat ? "  yes" : "  NO"].join(" "),
      ),
      "",
      `verdict: RSS flat within 10 % (end vs settled): ${verdict.rssFlatWithin10Percent ? "yes" : "NO"}; zero 5xx: ${verdict.zero5xx ? "yes" : "NO"}`,
      "wrote bench/soak-results.json",
    ];
    console.log(out.join("\n"));
  } finally {
    await server.stop();
  }
}

try {
  await main();
} catch (error) {
  console.error(`\nsoak: failed: ${error instanceof Error ? error.message : String(error)}`);
  cleanup();
  process.exit(1);
}
cleanup();
process.exit(0);
