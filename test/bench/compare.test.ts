import { expect, test } from "bun:test";
import { compare, ratioWithRange, type Rotation } from "../../bench/lib/wrk";
import { ROOT } from "../helpers/paths";

// How bench/run and bench/ab.ts read a rotation (bench/lib/wrk.ts): each ratio is the median of the rounds'
// ratios, and the range beside it is the lowest and the highest round's, so that a reader can tell a
// difference from the machine's noise (docs/performance.md, "Telling a change from noise").

const slice = (requestsPerSecond: number, serverCpuMicrosPerRequest: number, p99Ms = 5) => ({ requestsPerSecond, p99Ms, requests: requestsPerSecond * 2, serverCpuMicrosPerRequest });

/** Three servers over five rounds: b runs at 0.8, 0.9, 1.0, 0.7 and 1.2 of a; c at twice a throughout. */
const rotation: Rotation = {
  sides: [],
  rounds: [
    [slice(1000, 50), slice(800, 60), slice(2000, 25)],
    [slice(1000, 50), slice(900, 55), slice(2000, 25)],
    [slice(2000, 40), slice(2000, 40), slice(4000, 20)],
    [slice(1000, 50), slice(700, 70), slice(2000, 25)],
    [slice(500, 80), slice(600, 70), slice(1000, 40)],
  ],
};

test("the ratio is the median of the rounds' ratios, and the range their lowest and highest", () => {
  const bVsA = compare(rotation, 0, 1);
  expect(bVsA.rpsRatio).toBe(0.9);
  expect(bVsA.rpsRange).toEqual([0.7, 1.2]);
  // CPU per request b / a in each round: 1.2, 1.1, 1, 1.4, 0.875.
  expect(bVsA.cpuRatio).toBe(1.1);
  expect(ratioWithRange(bVsA)).toBe("0.9 (0.7-1.2)");
});

test("a server compared with itself reads 1 with no spread, and the order of the two is the ratio's direction", () => {
  expect(compare(rotation, 2, 2)).toEqual({ rpsRatio: 1, rpsRange: [1, 1], cpuRatio: 1, p99Ratio: 1 });
  expect(compare(rotation, 0, 2).rpsRatio).toBe(2);
  expect(compare(rotation, 2, 0).rpsRatio).toBe(0.5);
  expect(compare(rotation, 1, 0).rpsRange).toEqual([0.833, 1.429]);
});

test("bench/ab.ts refuses to run without two binaries, and says how to run it", () => {
  const run = Bun.spawnSync([process.execPath, "bench/ab.ts", "dist/foodapi"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect(run.exitCode).toBe(2);
  expect(run.stderr.toString()).toContain("usage: bun bench/ab.ts BINARY_A BINARY_B");
});
