import { loadavg } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../test/helpers/paths";
import { readSmapsRollup, type SmapsRollup } from "./memory";
import { round } from "./numbers";
import { cpuSeconds, descendants } from "./processes";
import { benchCacheDir, coldStartMs, onServer } from "./servers";
import { BROWSER_ACCEPT_ENCODING, MIX_QUERIES, SEARCH_PATH, WORKERS_MEMORY_COUNTS, WORKERS_WARM_SECONDS } from "./settings";
import { wrk, type WrkClient } from "./wrk";

/**
 * What each worker costs in memory (issue #32): `--workers N` for N in 1, 2, 4, each on a fresh server and
 * data directory and the bench's cache directory, warmed by a short load over what a worker holds (the
 * repeated search, the 1,000-query mix, random details plain, gzip and as a browser asks), the connections
 * spread over the workers by SO_REUSEPORT; then every process's /proc/<pid>/smaps_rollup. A page only one
 * process maps is private to it; the executable's pages and the page cache the workers map alike are shared,
 * so the memory another worker adds is the growth of the tree's private total.
 *
 * Each load lasts WORKERS_WARM_SECONDS per worker: a worker's heap grows with the requests it has answered,
 * and with a fixed duration each of four workers would answer a quarter of what one alone does and look
 * cheaper than it is. Bounded: 5 loads x WORKERS_WARM_SECONDS x (1 + 2 + 4) seconds.
 */

/** The issue's target: each worker beyond the first adds at most this much private memory (MB). */
export const PRIVATE_MB_PER_EXTRA_WORKER = 60;

type Megabytes = { [K in keyof SmapsRollup as K extends `${infer Name}Kb` ? `${Name}Mb` : never]: number };

interface ProcessMemory extends Megabytes {
  /** "first" (worker 0, which started the others) or "worker i". */
  role: string;
  pid: number;
  /** CPU seconds the process spent during the warm-up load: every worker took its share of the connections. */
  warmCpuSeconds: number;
}

interface TreeMemory {
  workers: number;
  /** Each warm-up load's length: WORKERS_WARM_SECONDS per worker. */
  warmSecondsPerLoad: number;
  warm: { label: string; requests: number; requestsPerSecond: number; non2xx: number }[];
  processes: ProcessMemory[];
  total: Megabytes;
}

export interface BeyondFirst {
  workers: number;
  /** (the tree's private total with N workers - with one) / (N - 1), MB: the target's figure. */
  privateMb: number;
  /**
   * The same over Pss, whose sum over the tree is its physical memory (each shared page counted once): what
   * another worker adds to the machine's memory. Larger than the private figure, because the pages that one
   * worker alone holds privately (the executable's) are shared, not private, once there are two.
   */
  pssMb: number;
  /** The largest private memory of one worker beyond the first, as its own smaps_rollup reads. */
  ownPrivateMb: number;
  targetMb: number;
  met: boolean;
}

export interface WorkersMemory {
  /** Each warm-up load lasts this many seconds per worker. */
  warmSecondsPerWorker: number;
  /** The unmeasured start before the trees (ms): a first start, expansion included, when the cache directory was fresh. */
  preparingStartMs: number;
  /** The 1, 5 and 15 minute load averages when the step began and when it ended: a busy machine shows here. */
  loadAverage: { before: number[]; after: number[] };
  trees: TreeMemory[];
  beyondFirst: BeyondFirst[];
}

/** The paths files bench/paths.lua cycles through: the 1,000-query mix and every food's detail. */
export interface PathFiles {
  mix: string;
  detail: string;
}

const mb = (kb: number) => round(kb / 1024, 1);

function megabytes(rollup: SmapsRollup): Megabytes {
  return { rssMb: mb(rollup.rssKb), pssMb: mb(rollup.pssKb), privateMb: mb(rollup.privateKb), sharedMb: mb(rollup.sharedKb), anonymousMb: mb(rollup.anonymousKb) };
}

/**
 * The tree's totals, and for each N > 1 the memory each worker beyond the first adds (against the one-worker
 * tree). Each tree's processes: the first, then its workers.
 */
export function summarise(trees: { workers: number; processes: SmapsRollup[] }[]): { totals: Megabytes[]; beyondFirst: BeyondFirst[] } {
  const totalKb = (processes: SmapsRollup[]) =>
    processes.reduce((sum, p) => ({ rssKb: sum.rssKb + p.rssKb, pssKb: sum.pssKb + p.pssKb, privateKb: sum.privateKb + p.privateKb, sharedKb: sum.sharedKb + p.sharedKb, anonymousKb: sum.anonymousKb + p.anonymousKb }), {
      rssKb: 0,
      pssKb: 0,
      privateKb: 0,
      sharedKb: 0,
      anonymousKb: 0,
    });
  const totals = trees.map((tree) => totalKb(tree.processes));
  const one = trees.findIndex((tree) => tree.workers === 1);
  const beyondFirst: BeyondFirst[] = [];
  if (one >= 0) {
    for (const [i, tree] of trees.entries()) {
      if (tree.workers <= 1) continue;
      const privateMb = mb((totals[i]!.privateKb - totals[one]!.privateKb) / (tree.workers - 1));
      const pssMb = mb((totals[i]!.pssKb - totals[one]!.pssKb) / (tree.workers - 1));
      const ownPrivateMb = mb(Math.max(...tree.processes.slice(1).map((p) => p.privateKb)));
      beyondFirst.push({ workers: tree.workers, privateMb, pssMb, ownPrivateMb, targetMb: PRIVATE_MB_PER_EXTRA_WORKER, met: privateMb <= PRIVATE_MB_PER_EXTRA_WORKER });
    }
  }
  return { totals: totals.map(megabytes), beyondFirst };
}

/**
 * Every process of the tree under `root` (the first process, then its workers by pid), each one's
 * smaps_rollup; fails unless there are `expected` of them, each readable.
 */
function treeRollups(root: number, expected: number): { pid: number; rollup: SmapsRollup }[] {
  const pids = [root, ...descendants(root).sort((a, b) => a - b)];
  const read = pids.map((pid) => ({ pid, rollup: readSmapsRollup(pid) }));
  const gone = read.filter((p) => !p.rollup).map((p) => p.pid);
  if (pids.length !== expected || gone.length) throw new Error(`--workers ${expected}: ${pids.length} processes (${pids.join(", ")})${gone.length ? `, ${gone.join(", ")} gone` : ""}; expected ${expected}`);
  return read as { pid: number; rollup: SmapsRollup }[];
}

export async function measureWorkersMemory(wrkPath: string, binary: string, files: PathFiles): Promise<WorkersMemory> {
  const before = loadavg().map((l) => round(l, 2));
  // One unmeasured start first, so that the catalog is expanded into the bench's cache directory before
  // any measured tree (whose first process would otherwise hold what the expansion left on its heap).
  const preparingStartMs = round(await coldStartMs(binary, ["--cache-dir", benchCacheDir()]), 1);
  const scripted = (key: string, env: Record<string, string>): WrkClient => ({ script: join(ROOT, "bench/paths.lua"), env: { ...env, BENCH_API_KEY: key } });
  const loads = (key: string): { label: string; path: string; client: WrkClient }[] => [
    { label: "search q=chicken&limit=20", path: SEARCH_PATH, client: { headers: [`X-API-Key: ${key}`] } },
    { label: `search mix (${MIX_QUERIES} queries)`, path: "/v1/foods", client: scripted(key, { BENCH_PATHS_FILE: files.mix }) },
    { label: "GET /v1/foods/{n} random", path: "/v1/foods/{n}", client: scripted(key, { BENCH_PATHS_FILE: files.detail }) },
    { label: "GET /v1/foods/{n} random, gzip", path: "/v1/foods/{n}", client: scripted(key, { BENCH_PATHS_FILE: files.detail, BENCH_ACCEPT_ENCODING: "gzip" }) },
    { label: "GET /v1/foods/{n} random, as a browser", path: "/v1/foods/{n}", client: scripted(key, { BENCH_PATHS_FILE: files.detail, BENCH_ACCEPT_ENCODING: BROWSER_ACCEPT_ENCODING }) },
  ];

  const trees: (Omit<TreeMemory, "total"> & { rollups: SmapsRollup[] })[] = [];
  for (const workers of WORKERS_MEMORY_COUNTS) {
    const seconds = WORKERS_WARM_SECONDS * workers;
    process.stderr.write(`bench: workers' memory, --workers ${workers}: warming (${loads("").length} loads of ${seconds} s) ... `);
    trees.push(
      await onServer(binary, ["--workers", String(workers)], async (server) => {
        const pids = treeRollups(server.pid, workers).map((p) => p.pid);
        const cpuBefore = pids.map((pid) => cpuSeconds(pid, false));
        const warm: TreeMemory["warm"] = [];
        for (const load of loads(server.key)) {
          const { result } = await wrk(wrkPath, `${server.url}${load.path}`, seconds, load.client);
          warm.push({ label: load.label, requests: result.requests, requestsPerSecond: result.requestsPerSecond, non2xx: result.non2xx });
        }
        const read = treeRollups(server.pid, workers);
        if (read.map((p) => p.pid).join() !== pids.join()) throw new Error(`--workers ${workers}: the processes changed during the load (${pids.join(", ")} -> ${read.map((p) => p.pid).join(", ")})`);
        const processes = read.map(({ pid, rollup }, i) => ({ role: i === 0 ? "first" : `worker ${i}`, pid, warmCpuSeconds: round(cpuSeconds(pid, false) - cpuBefore[i]!, 2), ...megabytes(rollup) }));
        const refused = warm.reduce((sum, w) => sum + w.non2xx, 0);
        process.stderr.write(`private ${processes.map((p) => p.privateMb).join(" + ")} MB, Pss ${processes.map((p) => p.pssMb).join(" + ")} MB${refused ? `, non-2xx ${refused}` : ""}\n`);
        return { workers, warmSecondsPerLoad: seconds, warm, processes, rollups: read.map((p) => p.rollup) };
      }),
    );
  }
  const { totals, beyondFirst } = summarise(trees.map((tree) => ({ workers: tree.workers, processes: tree.rollups })));
  return {
    warmSecondsPerWorker: WORKERS_WARM_SECONDS,
    preparingStartMs,
    loadAverage: { before, after: loadavg().map((l) => round(l, 2)) },
    trees: trees.map(({ rollups: _, ...tree }, i) => ({ ...tree, total: totals[i]! })),
    beyondFirst,
  };
}

/** The workers' memory tables: every process and each tree's total, then each worker beyond the first against the target. */
export function workersMemoryTables(figures: WorkersMemory): { processes: string[][]; beyondFirst: string[][] } {
  const processes = [["--workers N: process", "warm-up CPU s", "Rss MB", "Pss MB", "Private MB", "Shared MB", "Anonymous MB"]];
  const cells = (m: Megabytes) => [m.rssMb, m.pssMb, m.privateMb, m.sharedMb, m.anonymousMb].map((n) => n.toFixed(1));
  for (const tree of figures.trees) {
    for (const p of tree.processes) processes.push([`--workers ${tree.workers}: ${p.role}`, p.warmCpuSeconds.toFixed(2), ...cells(p)]);
    processes.push([`--workers ${tree.workers}: total`, tree.processes.reduce((sum, p) => sum + p.warmCpuSeconds, 0).toFixed(2), ...cells(tree.total)]);
  }
  const beyondFirst = [["each worker beyond the first, vs --workers 1", "tree's private growth / (N-1) MB", "tree's Pss growth / (N-1) MB", "a worker's own private MB (largest)", "target", "result"]];
  for (const b of figures.beyondFirst) {
    beyondFirst.push([`--workers ${b.workers}`, b.privateMb.toFixed(1), b.pssMb.toFixed(1), b.ownPrivateMb.toFixed(1), `private growth <= ${b.targetMb}`, b.met ? "met" : "NOT met"]);
  }
  return { processes, beyondFirst };
}
