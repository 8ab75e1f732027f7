import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup } from "../../bench/lib/processes";
import { type Server, startCeiling } from "../../bench/lib/servers";
import { wrk } from "../../bench/lib/wrk";
import { ROOT } from "../helpers/paths";

// bench/paths.lua and bench/post.lua keep their place in their list in BENCH_STATE_FILE, so that the slices
// of one load (each a wrk run of its own) go on through it: the floors' cold analyses never send a recipe
// twice, the workers' memory warms every food. Checked by two 1 s runs against a ceiling (bench/ceiling.ts).

const wrkPath = Bun.which("wrk");
let dir: string;
let ceiling: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "foodapi-bench-wrk-scripts-test-"));
  if (wrkPath) ceiling = await startCeiling(64);
});

afterAll(async () => {
  await ceiling?.stop();
  cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n";

for (const [script, listVariable, list] of [
  ["paths.lua", "BENCH_PATHS_FILE", lines(100_000, (i) => `/v1/foods/${String(i).padStart(6, "0")}`)],
  ["post.lua", "BENCH_BODIES_FILE", lines(100_000, (i) => JSON.stringify({ n: i }))],
] as const) {
  test.skipIf(!wrkPath)(`bench/${script}: a second run goes on from where the first stopped (BENCH_STATE_FILE), wrk installed`, async () => {
    const listFile = join(dir, `${script}.list`);
    writeFileSync(listFile, list);
    const state = join(dir, `${script}.next`);
    const client = { script: join(ROOT, "bench", script), env: { [listVariable]: listFile, BENCH_API_KEY: "fnk_test", BENCH_STATE_FILE: state, BENCH_THREADS: "2" }, connections: 8 };
    const first = (await wrk(wrkPath!, `${ceiling.url}/v1/foods`, 1, client)).result;
    const afterFirst = Number(readFileSync(state, "utf8"));
    const second = (await wrk(wrkPath!, `${ceiling.url}/v1/foods`, 1, client)).result;
    const afterSecond = Number(readFileSync(state, "utf8"));
    // Each thread's place moves on by what it sent (at least what was answered, shared over 2 threads).
    expect(first.requests).toBeGreaterThan(100);
    expect(afterFirst).toBeGreaterThanOrEqual(first.requests / 2);
    expect(afterSecond - afterFirst).toBeGreaterThanOrEqual(second.requests / 2);
  }, 30_000);
}
