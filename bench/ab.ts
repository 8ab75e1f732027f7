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
 * detailGzip, detailZstd; all when unset). Details are of the same 2,000 foods as bench/run's floors.
 * Loopback only; bounded by binaries x workloads x rounds x slice seconds of load.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DETAIL_FOODS } from "./lib/floors";
import { readFoods, shuffledFoodNumbers } from "./lib/inputs";
import { cleanup, cleanUpOnSignals, tempDir } from "./lib/processes";
import { printTable } from "./lib/report";
import { type Server, startFoodapi } from "./lib/servers";
import { AB_ROUNDS, AB_SLICE_SECONDS, BROWSER_ACCEPT_ENCODING, SEARCH_PATH, selectedWorkloads } from "./lib/settings";
import { compare, ensureWrk, measureRotation, ratioWithRange, type WrkClient } from "./lib/wrk";

const WORKLOADS = ["search", "detail", "detailGzip", "detailZstd"] as const;
type Workload = (typeof WORKLOADS)[number];

// Resolved here: the servers start in a temporary directory.
const binaries = process.argv.slice(2).map((binary) => resolve(binary));
if (binaries.length < 2) {
  console.error("usage: bun bench/ab.ts BINARY_A BINARY_B [BINARY_C ...]   (the same binary twice measures the machine's noise)");
  process.exit(2);
}
const workloads = selectedWorkloads(WORKLOADS);

cleanUpOnSignals();
const inputs = tempDir("foodapi-bench-ab-");
const detailsFile = join(inputs, "detail-paths.txt");
writeFileSync(detailsFile, shuffledFoodNumbers(readFoods()).slice(0, DETAIL_FOODS).map((n) => `/v1/foods/${n}`).join("\n") + "\n");
const detailClient = (acceptEncoding?: string) => (server: { key: string }): WrkClient => ({
  script: join(import.meta.dir, "paths.lua"),
  env: { BENCH_PATHS_FILE: detailsFile, BENCH_API_KEY: server.key, ...(acceptEncoding ? { BENCH_ACCEPT_ENCODING: acceptEncoding } : {}) },
});
const plans: Record<Workload, { label: string; path: string; client: (server: { key: string }) => WrkClient }> = {
  search: { label: `search ${SEARCH_PATH}`, path: SEARCH_PATH, client: (server) => ({ headers: [`X-API-Key: ${server.key}`] }) },
  detail: { label: `GET /v1/foods/{n} random (${DETAIL_FOODS} foods)`, path: "/v1/foods/{n}", client: detailClient() },
  detailGzip: { label: "the same, Accept-Encoding: gzip", path: "/v1/foods/{n}", client: detailClient("gzip") },
  detailZstd: { label: `the same, Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`, path: "/v1/foods/{n}", client: detailClient(BROWSER_ACCEPT_ENCODING) },
};

const wrkPath = ensureWrk();
const servers: (Server & { key: string })[] = [];
try {
  for (const binary of binaries) servers.push(await startFoodapi(binary, ["--workers", "1"]));
  const labels = binaries.map((binary, i) => `${String.fromCharCode(65 + i)} ${binary}`);
  for (const name of workloads) {
    const plan = plans[name];
    const rotation = await measureRotation(wrkPath, labels, servers, plan.path, servers.map(plan.client), AB_ROUNDS, AB_SLICE_SECONDS);
    const rows = [["binary", "req/s", "CPU µs/req", "req/s x A, median (rounds' range)", "CPU/req x A, median"]];
    rotation.sides.forEach((side, i) => {
      const compared = compare(rotation, 0, i);
      rows.push([side.label, String(side.requestsPerSecond), String(side.serverCpuMicrosPerRequest ?? "-"), i === 0 ? "-" : ratioWithRange(compared), i === 0 ? "-" : String(compared.cpuRatio)]);
    });
    printTable(`${plan.label}: ${AB_ROUNDS} rounds of ${AB_SLICE_SECONDS} s each`, rows);
  }
} finally {
  for (const server of servers) await server.stop();
  cleanup();
}
