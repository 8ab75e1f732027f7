/**
 * What a bench run measures with: the environment's settings (BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP_SECONDS,
 * BENCH_IMPORT_RUNS, BENCH_METRICS_ROUNDS) and the fixed shape of the load. Loopback only.
 */
export const SECONDS = positive("BENCH_SECONDS", 10);
export const WARMUP_SECONDS = nonNegative("BENCH_WARMUP_SECONDS", 2);
export const IMPORT_RUNS = positive("BENCH_IMPORT_RUNS", 3);
/**
 * A workload and its ceiling (and floor) take the load in turn, this many rounds of BENCH_SECONDS / ROUNDS
 * seconds each. More rounds narrow the median of the rounds' ratios, which moves by a tenth from one run of
 * five to the next on a 2-core VM (docs/performance.md, "Telling a change from noise").
 */
export const DEFAULT_ROUNDS = 5;
export const ROUNDS = positiveWhole("BENCH_ROUNDS", DEFAULT_ROUNDS);
/** The metrics' A/B (bench/lib/wrk.ts measureInterleaved): rounds of one slice per server, and a slice's length. */
export const METRICS_ROUNDS = positive("BENCH_METRICS_ROUNDS", 10);
export const METRICS_SLICE_SECONDS = 2;
/** bench/ab.ts: rounds of one slice per binary, and a slice's length in seconds (wrk takes whole seconds). */
export const AB_DEFAULT_ROUNDS = 10;
export const AB_DEFAULT_SLICE_SECONDS = 2;
export const AB_ROUNDS = positiveWhole("BENCH_AB_ROUNDS", AB_DEFAULT_ROUNDS);
export const AB_SLICE_SECONDS = positiveWhole("BENCH_AB_SLICE_SECONDS", AB_DEFAULT_SLICE_SECONDS);
/** bench/in-process.ts: the processes each side runs in per workload, whose median it reports. */
export const INPROCESS_DEFAULT_RUNS = 3;
export const INPROCESS_RUNS = positiveWhole("BENCH_INPROCESS_RUNS", INPROCESS_DEFAULT_RUNS);
/** bench/in-process.ts: the rounds each process measures, the first of them only warming the compiler and the first collections. */
export const INPROCESS_ROUNDS = 30;
export const INPROCESS_WARM_ROUNDS = 10;
export const INPROCESS_REQUESTS_PER_ROUND = 5000;
/** About what a server answers between two young collections (100 ms) at in-process rates: an eden collection that often. */
export const INPROCESS_EDEN_EVERY = 3000;
/** bench/syscall-cost.ts: each way's slice of a round (BENCH_ROUNDS rounds), in seconds. */
export const SYSCALL_SLICE_SECONDS = 2;
/**
 * bench/ab.ts with BENCH_AB_FREE_LIMIT (`100/1h`, as `--free-limit` takes it): every server's key gets that
 * quota, which the warm-up spends, so the rounds measure refusals (429s) rather than answers.
 */
export const AB_FREE_LIMIT = process.env.BENCH_AB_FREE_LIMIT || undefined;
export const THREADS = 2;
export const CONNECTIONS = 64;
export const FIRST_START_RUNS = 5;
/**
 * Later starts (~0.1 s each) are timed more often than first starts: their median of 5 moved by 10-15 %
 * between runs minutes apart on this machine, and a target is read from it (docs/performance.md, "Starts").
 */
export const LATER_START_RUNS = 15;
/**
 * A start that has not answered /healthz by then failed; a slower one is a figure (a first start expands
 * the catalog, which a machine busy with other work can stretch well past its target).
 */
export const START_LIMIT_MS = 60_000;
export const MIX_QUERIES = 1000;
/**
 * The workers' memory (bench/lib/workers-memory.ts): these worker counts, each warmed by loads of at least
 * WORKERS_WARM_REQUESTS per worker (or the load's distinct paths, if more), each load lasting
 * WORKERS_WARM_MAX_SECONDS per worker at most.
 */
export const WORKERS_MEMORY_COUNTS = [1, 2, 4] as const;
export const WORKERS_WARM_REQUESTS = 10_000;
export const WORKERS_WARM_MAX_SECONDS = 3;
export const HOST = "127.0.0.1";
/** Limits no workload reaches, so that every server answers what it is asked rather than 429. */
export const SERVER_LIMIT_FLAGS = ["--free-limit", "100000000/1h", "--trial-ip-limit", "1000000/1h"];
export const SEARCH_PATH = "/v1/foods?q=chicken&limit=20";
/** What Chrome and Firefox send over https. */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}
function positiveWhole(name: string, fallback: number): number {
  const value = positive(name, fallback);
  if (!Number.isInteger(value)) throw new Error(`${name} must be a whole number`);
  return value;
}
function nonNegative(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0`);
  return value;
}

/** The workloads BENCH_WORKLOADS names (comma-separated), of `known` and in its order; all of them when unset. */
export function selectedWorkloads<W extends string>(known: readonly W[]): W[] {
  const asked = process.env.BENCH_WORKLOADS?.split(",").map((w) => w.trim()).filter(Boolean);
  if (!asked) return [...known];
  const unknown = asked.filter((w) => !(known as readonly string[]).includes(w));
  if (unknown.length) throw new Error(`BENCH_WORKLOADS: unknown ${unknown.join(", ")} (known: ${known.join(", ")})`);
  return known.filter((w) => asked.includes(w));
}
