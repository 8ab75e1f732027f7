import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/paths";
import { pollUntil } from "../helpers/wait";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// A test run stopped by a signal (Ctrl-C, a CI job's timeout) still removes its directory and its processes
// (test/helpers/hygiene.ts); a signal's default action would end it without either.
for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
  test(`a run stopped by ${signal} leaves no directory and no process behind`, async () => {
    const parent = mkdtempSync(join(tmpdir(), "stopped-run-"));
    const run = Bun.spawn([process.execPath, "test", "./test/fixtures/stopped-run.fixture.ts", "--timeout", "90000"], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: parent },
      stdout: "ignore",
      stderr: "pipe",
    });
    try {
      const ready = await pollUntil(
        () => {
          const dirs = readdirSync(parent);
          const file = dirs.length === 1 ? join(parent, dirs[0]!, "ready") : undefined;
          return file && existsSync(file) ? { runDir: join(parent, dirs[0]!), childPid: Number(readFileSync(file, "utf8")) } : undefined;
        },
        { ms: 30_000, intervalMs: 50, what: "the stopped run's test to start its process" },
      );
      expect(alive(ready.childPid)).toBe(true);
      run.kill(signal);
      expect(await run.exited).toBe(code);
      expect(existsSync(ready.runDir)).toBe(false);
      // Killed before the run exited; gone once the orphan is reaped.
      await pollUntil(() => (alive(ready.childPid) ? undefined : true), { ms: 5_000, what: `process ${ready.childPid} to be gone` });
    } catch (error) {
      run.kill("SIGKILL");
      throw new Error(`${(error as Error).message}\nthe stopped run said:\n${await new Response(run.stderr).text()}`);
    } finally {
      run.kill("SIGKILL");
    }
  }, 60_000);
}
