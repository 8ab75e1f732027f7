import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../test/helpers/paths";
import type { Coding } from "./floor-index";
import { BROWSER_ACCEPT_ENCODING, SEARCH_PATH } from "./settings";
import type { WrkClient } from "./wrk";

/**
 * The floor's GET workloads, declared once for the two tools that drive them: bench/run against their
 * floors (floors.ts) and bench/ab.ts between builds. Each says what wrk asks, with which key, and in which
 * coding the answer comes back (the coding is how the floor's prepared answer is found, and sized).
 */
export const GET_WORKLOADS = ["search", "detail", "detailGzip", "detailZstd"] as const;
export type GetWorkload = (typeof GET_WORKLOADS)[number];

/** Details of this many foods (the first of the shuffled order): the floor holds each in three codings. */
const DETAIL_FOODS = 2000;

/** Where a detail plan's path takes a food number (bench/paths.lua sends each food's path in turn). */
const FOOD_NUMBER = "{n}";
const DETAIL_PATH = `/v1/foods/${FOOD_NUMBER}`;

export interface GetPlan {
  label: string;
  /** The path wrk is given: a fixed one, or a detail's with FOOD_NUMBER for the food. */
  path: string;
  /** The Accept-Encoding the client sends, if any. */
  acceptEncoding?: string;
  /** The coding the answer is sent in for that Accept-Encoding. */
  coding: Coding;
  /** The wrk client for a server with this key. */
  client: (server: { key: string }) => WrkClient;
}

/** Writes the detail workloads' paths (the first DETAIL_FOODS of `foodNumbers`) into `dir`; returns the file. */
export function writeDetailPaths(dir: string, foodNumbers: readonly string[]): { file: string; foods: string[] } {
  const foods = foodNumbers.slice(0, DETAIL_FOODS);
  const file = join(dir, "detail-paths.txt");
  writeFileSync(file, foods.map((n) => DETAIL_PATH.replace(FOOD_NUMBER, n)).join("\n") + "\n");
  return { file, foods };
}

/** The request targets a plan asks for: its path, or one per food of `foods` for a detail plan. */
export function planTargets(plan: GetPlan, foods: readonly string[]): string[] {
  return plan.path.includes(FOOD_NUMBER) ? foods.map((n) => plan.path.replace(FOOD_NUMBER, n)) : [plan.path];
}

/** The four plans, with the details' paths read from `detailsFile` (writeDetailPaths). */
export function getPlans(detailsFile: string): Record<GetWorkload, GetPlan> {
  /** Random details, sent with `acceptEncoding` (none: plain JSON), answered in `coding`. */
  const details = (acceptEncoding: string | undefined, coding: Coding): GetPlan => ({
    label: acceptEncoding ? `GET ${DETAIL_PATH} random, Accept-Encoding: ${acceptEncoding}` : `GET ${DETAIL_PATH} random (${DETAIL_FOODS} foods)`,
    path: DETAIL_PATH,
    ...(acceptEncoding ? { acceptEncoding } : {}),
    coding,
    client: (server) => ({
      script: join(ROOT, "bench/paths.lua"),
      env: { BENCH_PATHS_FILE: detailsFile, BENCH_API_KEY: server.key, ...(acceptEncoding ? { BENCH_ACCEPT_ENCODING: acceptEncoding } : {}) },
    }),
  });
  return {
    search: { label: "search q=chicken&limit=20", path: SEARCH_PATH, coding: "identity", client: (server) => ({ headers: [`X-API-Key: ${server.key}`] }) },
    detail: details(undefined, "identity"),
    detailGzip: details("gzip", "gzip"),
    detailZstd: details(BROWSER_ACCEPT_ENCODING, "zstd"),
  };
}
