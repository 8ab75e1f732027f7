/**
 * bench/ab: two (or more) builds of foodapi compared on the floor's GET workloads, interleaved: how a change
 * is measured before it is kept (docs/performance.md, "Telling a change from noise").
 *
 * Each binary serves with `--workers 1` on a fresh data directory; all are up at once, warmed, and take the
 * same load in turn in short slices (bench/lib/wrk.ts measureRotation), for BENCH_AB_ROUNDS rounds. For
 * each workload it prints every binary's requests/s and server CPU per request over all its slices, and its
 * requests/s against the first binary's: the median of the rounds' ratios and their range. The same binary
 * given twice measures the machine's own spread: a difference inside that spread is not one.
 *
 * Usage: bun bench/ab.ts BINARY_A BINARY_B [BINARY_C ...]
 * Settings: BENCH_AB_ROUNDS, BENCH_AB_SLICE_SECONDS (defaults in bench/lib/settings.ts), BENCH_WORKLOADS (of search, detail,
 * detailGzip, detailZstd; all when unset), BENCH_AB_FREE_LIMIT (a quota the warm-up spends: the rounds then measure refusals). Details are of the same 2,000 foods as bench/run's floors.
 * Loopback only; bounded by binaries x workloads x rounds x slice seconds of load.
 */
import { resolve } from "node:path";
import { GET_WORKLOADS, getPlans, writeDetailPaths } from "./lib/get-workloads";
import { readFoods, shuffledFoodNumbers } from "./lib/inputs";
import { cleanup, cleanUpOnSignals, tempDir } from "./lib/processes";
import { printTable } from "./lib/report";
import { type Server, startFoodapi } from "./lib/servers";
import { AB_FREE_LIMIT, AB_ROUNDS, AB_SLICE_SECONDS, selectedWorkloads } from "./lib/settings";
import { compare, ensureWrk, measureRotation, ratioWithRange } from "./lib/wrk";

// Resolved here: the servers start in a temporary directory.
const binaries = process.argv.slice(2).map((binary) => resolve(binary));
if (binaries.length < 2) {
  console.error("usage: bun bench/ab.ts BINARY_A BINARY_B [BINARY_C ...]   (the same binary twice measures the machine's noise)");
  process.exit(2);
}
const workloads = selectedWorkloads(GET_WORKLOADS);

cleanUpOnSignals();
const plans = getPlans(writeDetailPaths(tempDir("foodapi-bench-ab-"), shuffledFoodNumbers(readFoods())).file);

const wrkPath = ensureWrk();
const servers: (Server & { key: string })[] = [];
try {
  const quota = AB_FREE_LIMIT ? ["--free-limit", AB_FREE_LIMIT] : [];
  for (const binary of binaries) servers.push(await startFoodapi(binary, ["--workers", "1", ...quota]));
  const labels = binaries.map((binary, i) => `${String.fromCharCode(65 + i)} ${binary}`);
  for (const name of workloads) {
    const plan = plans[name];
    const rotation = await measureRotation(wrkPath, labels, servers, plan.path, servers.map(plan.client), AB_ROUNDS, AB_SLICE_SECONDS);
    const rows = [["binary", "req/s", "CPU µs/req", "req/s x A, median (rounds' range)", "CPU/req x A, median"]];
    rotation.sides.forEach((side, i) => {
      const compared = compare(rotation, 0, i);
      rows.push([side.label, String(side.requestsPerSecond), String(side.serverCpuMicrosPerRequest ?? "-"), i === 0 ? "-" : ratioWithRange(compared), i === 0 ? "-" : String(compared.cpuRatio)]);
    });
    const refused = AB_FREE_LIMIT ? `, past a ${AB_FREE_LIMIT} quota (429s)` : "";
    printTable(`${plan.label}${refused}: ${AB_ROUNDS} rounds of ${AB_SLICE_SECONDS} s each`, rows);
  }
} finally {
  for (const server of servers) await server.stop();
  cleanup();
}
