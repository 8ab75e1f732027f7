import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../test/helpers/paths";
import { type FloorRequest, floorAnswersFrom } from "./floor-answers";
import { answerKey, type FloorIndex } from "./floor-index";
import { median, round } from "./numbers";
import { tempDir } from "./processes";
import { GET_WORKLOADS, type GetPlan, type GetWorkload, getPlans, planTargets, writeDetailPaths } from "./get-workloads";
import { distinctRecipes, LINES_PER_RECIPE } from "./recipes";
import { onServer, startCeiling, startFloor } from "./servers";
import { ROUNDS, SECONDS, selectedWorkloads, THREADS } from "./settings";
import { type Compared, compare, type Measurement, measureRotation, ratioWithRange, type WrkClient } from "./wrk";

/**
 * Each measured route against its floor (bench/floor.ts, decisions §18) and the bare ceiling, the three
 * interleaved (bench/lib/wrk.ts measureRotation) under the same wrk client: foodapi / floor is foodapi's own
 * cost, floor / ceiling what the route's promised work costs over sending bytes.
 */

/** The floor workloads, by the names BENCH_WORKLOADS takes (comma-separated; all when unset). */
const FLOOR_WORKLOADS = [...GET_WORKLOADS, "lookup", "analysis", "analysisRepeated", "analysisOneClient"] as const;
type FloorWorkload = (typeof FLOOR_WORKLOADS)[number];
/**
 * Distinct recipes (20 distinct lines each, no line in two), sent in turn and never twice to one server
 * until the list runs out (bench/post.lua): 7,500 recipes last 15 s at 500 analyses per second.
 */
const RECIPES = 7500;
/** Real analyses the floor sends in turn. */
const ANALYSIS_SAMPLES = 20;
const LOOKUP_FOODS = 10;
const ANALYZE_PATH = "/v1/analyze";
const LOOKUP_PATH = "/v1/foods/lookup";

export interface FloorFigures {
  label: string;
  ceiling: Measurement;
  floor: Measurement;
  foodapi: Measurement;
  /** foodapi against its floor, and the floor against the ceiling: requests/s, CPU per request and p99, each b/a. */
  foodapiVsFloor: Compared;
  floorVsCeiling: Compared;
  /** The analysis: server CPU per recipe line (µs), foodapi's and the floor's. */
  cpuMicrosPerLine?: { foodapi: number | undefined; floor: number | undefined };
}

export function selectedFloorWorkloads(): FloorWorkload[] {
  return selectedWorkloads(FLOOR_WORKLOADS);
}

export async function measureFloors(wrkPath: string, binary: string, foodNumbers: string[], workloads: FloorWorkload[]): Promise<Partial<Record<FloorWorkload, FloorFigures>>> {
  const inputs = tempDir("foodapi-bench-floor-");
  const { file: detailsFile, foods: details } = writeDetailPaths(inputs, foodNumbers);
  const getPlan = getPlans(detailsFile);
  const recipes = distinctRecipes(RECIPES + 1);
  const repeated = recipes.pop()!;
  const recipesFile = join(inputs, "recipes.txt");
  writeFileSync(recipesFile, recipes.join("\n") + "\n");
  const repeatedFile = join(inputs, "recipe-repeated.txt");
  writeFileSync(repeatedFile, repeated + "\n");
  const lookupBody = JSON.stringify({ foodNumbers: details.slice(0, LOOKUP_FOODS) });
  const lookupFile = join(inputs, "lookup.txt");
  writeFileSync(lookupFile, lookupBody + "\n");

  // The prepared answers, from a foodapi of their own: the measured ones start with cold caches.
  const wants = new Set(workloads);
  const requests: FloorRequest[] = [];
  for (const name of GET_WORKLOADS) {
    if (!wants.has(name)) continue;
    const plan = getPlan[name];
    for (const target of planTargets(plan, details)) requests.push({ method: "GET", target, coding: plan.coding });
  }
  if (wants.has("lookup")) requests.push({ method: "POST", target: LOOKUP_PATH, body: lookupBody });
  if (workloads.some((w) => w.startsWith("analysis"))) for (const body of [repeated, ...recipes.slice(-ANALYSIS_SAMPLES + 1)]) requests.push({ method: "POST", target: ANALYZE_PATH, body, analysis: true });
  const answersDir = join(inputs, "answers");
  mkdirSync(answersDir);
  const floorKey = (await floorAnswersFrom(binary, requests, answersDir)).key;
  const index = JSON.parse(readFileSync(join(answersDir, "index.json"), "utf8")) as FloorIndex;
  const lengths = new Map(index.answers.map((a) => [a.key, a.length]));
  /** The median size of the prepared answers to these requests (by floor-index.ts answerKey). */
  const sizeOf = (keys: readonly string[]) => {
    const known = keys.flatMap((key) => lengths.get(key) ?? []);
    if (known.length === 0) throw new Error(`no prepared answer for ${keys[0]}`);
    return Math.round(median(known));
  };

  // Each server goes on through the bodies from slice to slice (its own next index in a state file).
  const posts = (file: string, threads = THREADS, connections?: number) => (server: { key: string }): WrkClient => ({
    script: join(ROOT, "bench/post.lua"),
    env: { BENCH_BODIES_FILE: file, BENCH_API_KEY: server.key, BENCH_THREADS: String(threads), BENCH_STATE_FILE: `${file}.${server.key}.next` },
    threads,
    ...(connections ? { connections } : {}),
  });
  const withBytes = (plan: GetPlan) => ({ ...plan, bytes: () => sizeOf(planTargets(plan, details).map((target) => answerKey("GET", target, plan.coding))) });
  const analysisBytes = () => Math.round(median(index.analyses.map((a) => a.length)));
  const plans: Record<FloorWorkload, { label: string; path: string; bytes: () => number; client: (server: { key: string }) => WrkClient; lines?: number }> = {
    ...(Object.fromEntries(GET_WORKLOADS.map((name) => [name, withBytes(getPlan[name])])) as Record<GetWorkload, ReturnType<typeof withBytes>>),
    lookup: { label: `POST /v1/foods/lookup (${LOOKUP_FOODS} foods, repeated)`, path: LOOKUP_PATH, bytes: () => sizeOf([answerKey("POST", LOOKUP_PATH, lookupBody)]), client: posts(lookupFile) },
    analysis: { label: `POST /v1/analyze, ${LINES_PER_RECIPE} distinct lines (cold)`, path: ANALYZE_PATH, bytes: analysisBytes, client: posts(recipesFile), lines: LINES_PER_RECIPE },
    // One client waiting for each answer: the p99 is an analysis's own time, not a queue behind 63 others.
    analysisOneClient: { label: `POST /v1/analyze, ${LINES_PER_RECIPE} distinct lines (cold), one client (-t1 -c1)`, path: ANALYZE_PATH, bytes: analysisBytes, client: posts(recipesFile, 1, 1), lines: LINES_PER_RECIPE },
    analysisRepeated: { label: `POST /v1/analyze, one ${LINES_PER_RECIPE}-line recipe repeated`, path: ANALYZE_PATH, bytes: analysisBytes, client: posts(repeatedFile), lines: LINES_PER_RECIPE },
  };

  const figures: Partial<Record<FloorWorkload, FloorFigures>> = {};
  for (const name of workloads) {
    const plan = plans[name];
    const bytes = Math.max(16, plan.bytes());
    // All three sides fresh for each workload: foodapi's caches start cold (the distinct recipes find no
    // line analysed before), and no side brings to a workload what an earlier one left in its heap or
    // taught its compiler.
    const ceiling = await startCeiling(bytes);
    const floor = await startFloor(answersDir, floorKey);
    try {
      figures[name] = await onServer(binary, ["--workers", "1"], async (foodapi) => {
        const servers = [ceiling, floor, foodapi];
        const labels = [`ceiling (${bytes} B)`, `floor ${plan.label}`, plan.label];
        const clients = [plan.client({ key: "fnk_ceiling" }), plan.client(floor), plan.client(foodapi)];
        const rotation = await measureRotation(wrkPath, labels, servers, plan.path, clients, ROUNDS, Math.max(1, Math.round(SECONDS / ROUNDS)));
        const [c, f, a] = rotation.sides as [Measurement, Measurement, Measurement];
        const perLine = (m: Measurement) => (m.serverCpuMicrosPerRequest === undefined || !plan.lines ? undefined : round(m.serverCpuMicrosPerRequest / plan.lines, 2));
        return {
          label: plan.label,
          ceiling: { ...c, bodyBytes: bytes },
          floor: f,
          foodapi: a,
          foodapiVsFloor: compare(rotation, 1, 2),
          floorVsCeiling: compare(rotation, 0, 1),
          ...(plan.lines ? { cpuMicrosPerLine: { foodapi: perLine(a), floor: perLine(f) } } : {}),
        };
      });
    } finally {
      await floor.stop();
      await ceiling.stop();
    }
  }
  return figures;
}

/** The floors' table: requests/s, p99 and server CPU per request of each side, and the ratios. */
export function floorTable(figures: Partial<Record<string, FloorFigures>>): string[][] {
  const rows = [["workload (--workers 1)", "req/s foodapi | floor | ceiling", "foodapi/floor (rounds' range)", "floor/ceiling", "p99 ms foodapi | floor | ceiling", "CPU µs/req foodapi | floor | ceiling", "CPU x floor"]];
  for (const f of Object.values(figures)) {
    if (!f) continue;
    const three = (g: (m: Measurement) => number | undefined) => [f.foodapi, f.floor, f.ceiling].map((m) => String(g(m) ?? "-")).join(" | ");
    rows.push([
      f.label,
      three((m) => m.requestsPerSecond),
      ratioWithRange(f.foodapiVsFloor),
      String(f.floorVsCeiling.rpsRatio),
      three((m) => m.p99Ms),
      three((m) => m.serverCpuMicrosPerRequest) + (f.cpuMicrosPerLine ? ` (per line ${f.cpuMicrosPerLine.foodapi} | ${f.cpuMicrosPerLine.floor})` : ""),
      String(f.foodapiVsFloor.cpuRatio),
    ]);
  }
  return rows;
}
