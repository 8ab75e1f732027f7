import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup } from "../../bench/lib/processes";
import { coldStartMs, coldStartTimes, compileStartCeiling } from "../../bench/lib/servers";

// bench/run times starts (bench/lib/servers.ts coldStartMs). A first start expands the catalog, which a
// machine busy with other work stretches: a slow start is a figure to report against its target, not a
// failure of the harness. Stood in for by a server that takes 5.5 s to answer /healthz (past the 5 s the
// harness once allowed), and one that exits instead.

const dir = mkdtempSync(join(tmpdir(), "foodapi-bench-start-test-"));

afterAll(() => {
  // The bench's own temporary directories (each start's data directory) and anything it left running.
  cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** An executable taking `serve --host H --port P ...`: after `delayMs`, /healthz answers 200 (or, with `exitCode`, it exits). */
function fakeServer(name: string, delayMs: number, exitCode?: number): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!${process.execPath}
const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
await Bun.sleep(${delayMs});
${exitCode === undefined ? `Bun.serve({ hostname: arg("--host"), port: Number(arg("--port")), fetch: () => new Response("ok") });` : `process.exit(${exitCode});`}
`,
  );
  chmodSync(path, 0o755);
  return path;
}

test("a start that takes 5.5 s is timed, not failed", async () => {
  const ms = await coldStartMs(fakeServer("slow", 5_500), []);
  expect(ms).toBeGreaterThanOrEqual(5_500);
  expect(ms).toBeLessThan(30_000);
}, 40_000);

test("a server that exits before answering fails the start, saying so", async () => {
  await expect(coldStartMs(fakeServer("exits", 100, 3), ["--cache-dir", "x"])).rejects.toThrow("start: server exited with 3 (serve --cache-dir x)");
}, 40_000);

// The start's ceiling is timed beside every default later start: the bare server compiled as foodapi is must
// answer both routes a start is timed to, as foodapi's arguments give them, and stop with the harness.
test("the start's ceiling compiles, and its start is timed to both routes like foodapi's", async () => {
  const ceiling = compileStartCeiling();
  const times = await coldStartTimes(ceiling, ["--cache-dir", join(dir, "unused")]);
  expect(times.ms).toBeGreaterThan(0);
  expect(times.everyRouteMs).toBeGreaterThanOrEqual(times.ms);
  expect(times.ms).toBeLessThan(30_000);
  // Stopped once timed: no process of it is left.
  const left = Bun.spawnSync(["pgrep", "-f", ceiling]).stdout.toString().trim();
  expect(left).toBe("");
}, 60_000);
