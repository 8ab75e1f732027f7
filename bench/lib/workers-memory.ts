import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../test/helpers/paths";
import { readSmapsRollup, type SmapsRollup } from "./memory";
import { round } from "./numbers";
import { cpuSeconds, descendants, tempDir } from "./processes";
import { benchCacheDir, coldStartMs, onServer } from "./servers";
import { BROWSER_ACCEPT_ENCODING, MIX_QUERIES, SEARCH_PATH, WORKERS_MEMORY_COUNTS, WORKERS_WARM_MAX_SECONDS, WORKERS_WARM_REQUESTS } from "./settings";
import { wrk, type WrkClient } from "./wrk";

/**
 * What each worker costs in memory (issue #32): `--workers N` for N in 1, 2, 4, each on a fresh server and
 * data directory and the bench's cache directory, warmed by a short load over what a worker holds (the
 * repeated search, the 1,000-query mix, random details plain, gzip and as a browser asks), the connections
 * spread over the workers by SO_REUSEPORT; then every process's /proc/<pid>/smaps_rollup. A page only one
 * process maps is private to it; the executable's pages and the page cache the workers map alike are shared.
 * What another worker adds is reported three ways: the growth of the tree's private total per added worker
 * (the issue's figure), of its Pss total (the tree's physical memory: each shared page counted once), and a
 * worker's own private memory. The first is the smallest: with one process the executable's pages are
 * private to it, with two they are shared, and that one-off move is divided by N - 1.
 *
 * Each load is sized in requests per worker (WORKERS_WARM_REQUESTS, or every distinct path of it once if
 * more): a worker's heap grows with the requests it has answered, and with a fixed duration each of four
 * workers would answer a quarter of what one alone does and look cheaper than it is; nor does a machine that
 * others share keep one speed from one tree to the next. Bounded: 5 loads x WORKERS_WARM_MAX_SECONDS x N s.
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
  /** Each load: the requests it aimed at (per worker x N), those answered, over how many seconds. */
  warm: { label: string; aimedAt: number; requests: number; seconds: number; non2xx: number }[];
  processes: ProcessMemory[];
  total: Megabytes;
}

export interface BeyondFirst {
  workers: number;
  /** (the tree's private total with N workers - with one) / (N - 1), MB: the issue's figure. */
  privateMb: number;
  /** The same over Pss, whose sum over the tree is its physical memory: what another worker adds to the machine's. */
  pssMb: number;
  /** The largest private memory of one worker beyond the first, as its own smaps_rollup reads. */
  ownPrivateMb: number;
  targetMb: number;
  /** privateMb, and pssMb, within the target. */
  met: boolean;
  pssMet: boolean;
}

export interface WorkersMemory {
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

/**
 * At least `requests` requests of one load, in 1 s runs (wrk's shortest; paths.lua goes on through its list
 * from one to the next, by its state file), `maxSeconds` of them at most: a machine others share does not
 * keep one speed, and a run sized by the one before overshoots, the first being slow while code warms up.
 */
async function warm(wrkPath: string, url: string, client: WrkClient, requests: number, maxSeconds: number) {
  let answered = 0;
  let non2xx = 0;
  let seconds = 0;
  while (answered < requests && seconds < maxSeconds) {
    const { result } = await wrk(wrkPath, url, 1, client);
    answered += result.requests;
    non2xx += result.non2xx;
    seconds++;
  }
  return { requests: answered, seconds, non2xx };
}

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
      beyondFirst.push({ workers: tree.workers, privateMb, pssMb, ownPrivateMb, targetMb: PRIVATE_MB_PER_EXTRA_WORKER, met: privateMb <= PRIVATE_MB_PER_EXTRA_WORKER, pssMet: pssMb <= PRIVATE_MB_PER_EXTRA_WORKER });
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
  const preparingStartMs = round(await coldStartMs(binary, ["--cache-dir", benchCacheDir(binary)]), 1);
  // Where each load's slices keep their place in the paths file (bench/paths.lua), one file per tree and load.
  const states = tempDir("foodapi-bench-warm-");
  const scripted = (key: string, state: string, env: Record<string, string>): WrkClient => ({
    script: join(ROOT, "bench/paths.lua"),
    env: { ...env, BENCH_API_KEY: key, BENCH_STATE_FILE: join(states, `${state}.next`) },
  });
  const distinct = (file: string) => Math.max(WORKERS_WARM_REQUESTS, readFileSync(file, "utf8").split("\n").filter(Boolean).length);
  const [searches, mixes, details] = [WORKERS_WARM_REQUESTS, distinct(files.mix), distinct(files.detail)];
  const loads = (key: string, workers: number): { label: string; path: string; client: WrkClient; perWorker: number }[] => [
    { label: "search q=chicken&limit=20", path: SEARCH_PATH, client: { headers: [`X-API-Key: ${key}`] }, perWorker: searches },
    { label: `search mix (${MIX_QUERIES} queries)`, path: "/v1/foods", client: scripted(key, `${workers}-mix`, { BENCH_PATHS_FILE: files.mix }), perWorker: mixes },
    { label: "GET /v1/foods/{n} random", path: "/v1/foods/{n}", client: scripted(key, `${workers}-detail`, { BENCH_PATHS_FILE: files.detail }), perWorker: details },
    {
      label: "GET /v1/foods/{n} random, gzip",
      path: "/v1/foods/{n}",
      client: scripted(key, `${workers}-detail-gzip`, { BENCH_PATHS_FILE: files.detail, BENCH_ACCEPT_ENCODING: "gzip" }),
      perWorker: details,
    },
    {
      label: "GET /v1/foods/{n} random, as a browser",
      path: "/v1/foods/{n}",
      client: scripted(key, `${workers}-detail-browser`, { BENCH_PATHS_FILE: files.detail, BENCH_ACCEPT_ENCODING: BROWSER_ACCEPT_ENCODING }),
      perWorker: details,
    },
  ];

  const trees: (Omit<TreeMemory, "total"> & { rollups: SmapsRollup[] })[] = [];
  for (const workers of WORKERS_MEMORY_COUNTS) {
    process.stderr.write(`bench: workers' memory, --workers ${workers}: warming (${loads("", workers).map((load) => load.perWorker * workers).join(", ")} requests) ... `);
    trees.push(
      await onServer(binary, ["--workers", String(workers)], async (server) => {
        const pids = treeRollups(server.pid, workers).map((p) => p.pid);
        const cpuBefore = pids.map((pid) => cpuSeconds(pid, false));
        const warmed: TreeMemory["warm"] = [];
        for (const load of loads(server.key, workers)) {
          const aimedAt = load.perWorker * workers;
          warmed.push({ label: load.label, aimedAt, ...(await warm(wrkPath, `${server.url}${load.path}`, load.client, aimedAt, WORKERS_WARM_MAX_SECONDS * workers)) });
        }
        const read = treeRollups(server.pid, workers);
        if (read.map((p) => p.pid).join() !== pids.join()) throw new Error(`--workers ${workers}: the processes changed during the load (${pids.join(", ")} -> ${read.map((p) => p.pid).join(", ")})`);
        const processes = read.map(({ pid, rollup }, i) => ({ role: i === 0 ? "first" : `worker ${i}`, pid, warmCpuSeconds: round(cpuSeconds(pid, false) - cpuBefore[i]!, 2), ...megabytes(rollup) }));
        const refused = warmed.reduce((sum, w) => sum + w.non2xx, 0);
        const short = warmed.filter((w) => w.requests < w.aimedAt).map((w) => `${w.label} ${w.requests} of ${w.aimedAt}`);
        process.stderr.write(`private ${processes.map((p) => p.privateMb).join(" + ")} MB, Pss ${processes.map((p) => p.pssMb).join(" + ")} MB${refused ? `, non-2xx ${refused}` : ""}${short.length ? `; fewer requests than aimed at: ${short.join(", ")}` : ""}\n`);
        return { workers, warm: warmed, processes, rollups: read.map((p) => p.rollup) };
      }),
    );
  }
  const { totals, beyondFirst } = summarise(trees.map((tree) => ({ workers: tree.workers, processes: tree.rollups })));
  return {
    preparingStartMs,
    loadAverage: { before, after: loadavg().map((l) => round(l, 2)) },
    trees: trees.map(({ rollups: _, ...tree }, i) => ({ ...tree, total: totals[i]! })),
    beyondFirst,
  };
}

/** The workers' memory tables: every process and each tree's total, then each worker beyond the first against the target. */
export function workersMemoryTables(figures: WorkersMemory): { processes: string[][]; beyondFirst: string[][] } {
  const processes = [["--workers N: process", "warm-up requests", "warm-up CPU s", "Rss MB", "Pss MB", "Private MB", "Shared MB", "Anonymous MB"]];
  const cells = (m: Megabytes) => [m.rssMb, m.pssMb, m.privateMb, m.sharedMb, m.anonymousMb].map((n) => n.toFixed(1));
  for (const tree of figures.trees) {
    // Which worker answered a request is the kernel's choice: only the tree's total is known.
    for (const p of tree.processes) processes.push([`--workers ${tree.workers}: ${p.role}`, "", p.warmCpuSeconds.toFixed(2), ...cells(p)]);
    const requests = tree.warm.reduce((sum, w) => sum + w.requests, 0);
    processes.push([`--workers ${tree.workers}: total`, String(requests), tree.processes.reduce((sum, p) => sum + p.warmCpuSeconds, 0).toFixed(2), ...cells(tree.total)]);
  }
  const beyondFirst = [["each worker beyond the first, vs --workers 1", "tree's private growth / (N-1) MB", "tree's Pss growth / (N-1) MB", "a worker's own private MB (largest)", "target", "private | Pss"]];
  const result = (met: boolean) => (met ? "met" : "NOT met");
  for (const b of figures.beyondFirst) {
    beyondFirst.push([`--workers ${b.workers}`, b.privateMb.toFixed(1), b.pssMb.toFixed(1), b.ownPrivateMb.toFixed(1), `<= ${b.targetMb}`, `${result(b.met)} | ${result(b.pssMet)}`]);
  }
  return { processes, beyondFirst };
}
