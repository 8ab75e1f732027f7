import { describe, expect, test } from "bun:test";
import { ROOT } from "../helpers/paths";

/**
 * test/run-all.sh, the end of `npm test`: two Bun runs, then one summary of both. Given two small runs of
 * its own (fixtures that pass or fail on purpose) in place of the suite's.
 */
const BUN = process.execPath;
const run = (first: string, second: string) => {
  const result = Bun.spawnSync(["bash", "test/run-all.sh", first, second], { cwd: ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: process.env.TMPDIR ?? "/tmp" }, stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  const lines = result.stdout.toString().trimEnd().split("\n");
  return { exitCode: result.exitCode, lines, last: lines.at(-1)!, stderr: result.stderr.toString() };
};
const passing = `${BUN} test ./test/fixtures/run-all-passing.fixture.ts`;
const failing = `${BUN} test ./test/fixtures/run-all-failing.fixture.ts`;

describe("test/run-all.sh", () => {
  test("a failure in the first run is in the last lines, after the second run's '0 fail': named, counted, and the exit code is not 0", () => {
    const result = run(failing, passing);
    expect(result.exitCode).not.toBe(0);
    const secondRunsSummary = result.lines.lastIndexOf(" 0 fail");
    expect(secondRunsSummary).toBeGreaterThan(-1);
    expect(result.lines.slice(secondRunsSummary + 1).filter((line) => line !== "" && !/^ *\d+ expect\(\) calls$|^Ran \d+ tests? across/.test(line))).toEqual([
      "the SQLite run: 1 passed, 1 failed (exit 1); the PostgreSQL + Redis run: 2 passed, 0 failed (exit 0)",
      "failed:",
      "  test/fixtures/run-all-failing.fixture.ts: a group > fails on purpose (SQLite)",
      expect.stringMatching(/^3 passed, 1 failed, in both runs, in 0m \d+s$/),
    ]);
  });

  test("a failure is named once, under its own file, though Bun repeats it after the last file of a run", () => {
    // Bun's own output of a long run, where it names the failures again after the last file (run-all-recap.log).
    const result = run("cat test/fixtures/run-all-recap.log; exit 1", passing);
    const named = result.lines.slice(result.lines.indexOf("failed:") + 1).filter((line) => line.startsWith("  "));
    expect(named).toEqual(["  test/fixtures/first.test.ts: a group > fails on purpose (SQLite)"]);
  });

  test("both runs passing: their counts added up, exit code 0", () => {
    const result = run(passing, passing);
    expect(result.exitCode).toBe(0);
    expect(result.last).toMatch(/^4 passed, 0 failed, in both runs, in 0m \d+s$/);
    expect(result.lines).not.toContain("failed:");
  });

  test("a run that stops without Bun's counts (a crash) counts as a failure", () => {
    const result = run(passing, "echo 'the second run crashed'; exit 3");
    expect(result.exitCode).not.toBe(0);
    expect(result.lines).toContain("the SQLite run: 2 passed, 0 failed (exit 0); the PostgreSQL + Redis run: 0 passed, 1 failed (exit 3)");
    expect(result.last).toMatch(/^2 passed, 1 failed, in both runs/);
  });

  test("its summary adds no line that .ci/run would count again", () => {
    const result = run(failing, passing);
    const counted = result.lines.filter((line) => /^ *[0-9]+ (pass|fail)$/.test(line));
    expect(counted).toEqual([" 1 pass", " 1 fail", " 2 pass", " 0 fail"]);
  });
});
