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

export interface GetPlan {
  label: string;
  /** The path wrk is given: a fixed one, or `{n}` filled in per request by bench/paths.lua. */
  path: string;
  /** The coding the answer is sent in for this client's Accept-Encoding. */
  coding: Coding;
  /** The wrk client for a server with this key. */
  client: (server: { key: string }) => WrkClient;
}

/** Writes the detail workloads' paths (the first DETAIL_FOODS of `foodNumbers`) into `dir`; returns the file. */
export function writeDetailPaths(dir: string, foodNumbers: readonly string[]): { file: string; foods: string[] } {
  const foods = foodNumbers.slice(0, DETAIL_FOODS);
  const file = join(dir, "detail-paths.txt");
  writeFileSync(file, foods.map((n) => `/v1/foods/${n}`).join("\n") + "\n");
  return { file, foods };
}

/** The four plans, with the details' paths read from `detailsFile` (writeDetailPaths). */
export function getPlans(detailsFile: string): Record<GetWorkload, GetPlan> {
  const details = (acceptEncoding?: string) => (server: { key: string }): WrkClient => ({
    script: join(ROOT, "bench/paths.lua"),
    env: { BENCH_PATHS_FILE: detailsFile, BENCH_API_KEY: server.key, ...(acceptEncoding ? { BENCH_ACCEPT_ENCODING: acceptEncoding } : {}) },
  });
  const detailPath = "/v1/foods/{n}";
  return {
    search: { label: "search q=chicken&limit=20", path: SEARCH_PATH, coding: "identity", client: (server) => ({ headers: [`X-API-Key: ${server.key}`] }) },
    detail: { label: `GET /v1/foods/{n} random (${DETAIL_FOODS} foods)`, path: detailPath, coding: "identity", client: details() },
    detailGzip: { label: "GET /v1/foods/{n} random, Accept-Encoding: gzip", path: detailPath, coding: "gzip", client: details("gzip") },
    detailZstd: { label: `GET /v1/foods/{n} random, Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`, path: detailPath, coding: "zstd", client: details(BROWSER_ACCEPT_ENCODING) },
  };
}
