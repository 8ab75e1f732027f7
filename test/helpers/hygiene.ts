import { afterAll } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Preloaded before every test file (bunfig.toml): the suite leaves nothing behind. Every temporary
 * directory a test makes with `mkdtempSync(join(tmpdir(), …))` lands in one directory of this run, removed
 * when the run ends; processes the helpers start and a test did not stop are killed then too.
 */
const runDir = mkdtempSync(join(tmpdir(), "foodapi-test-run-"));
// As /tmp is: tests that run the binary as another user (nobody) must be able to reach their directories.
chmodSync(runDir, 0o755);
process.env.TMPDIR = runDir;

const children = new Set<{ kill(signal?: number | NodeJS.Signals): void }>();

/** A process a helper started: killed at the end of the run unless it was stopped (then `forget` it). */
export function trackChild<T extends { kill(signal?: number | NodeJS.Signals): void }>(child: T): T {
  children.add(child);
  return child;
}
export function forgetChild(child: object): void {
  children.delete(child as never);
}

const endings: Array<() => Promise<void>> = [];
/**
 * Work for the end of the run, before the kill: a helper's shared servers stopped cleanly (those the test
 * backend starts once per run, test/helpers/test-backend.ts). Each gets 10 s; what is left is killed.
 */
export function atRunEnd(stop: () => Promise<void>): void {
  endings.push(stop);
}

async function endRun(): Promise<void> {
  for (const stop of endings.splice(0)) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000)));
    await Promise.race([stop().catch((error) => console.error(`stopping at the end of the run: ${(error as Error).message}`)), late]);
    clearTimeout(timer);
  }
  cleanUp();
}

function cleanUp(): void {
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
  try {
    rmSync(runDir, { recursive: true, force: true });
  } catch (error) {
    // A file system a test mounted and could not unmount keeps its mount point: say so, keep the rest going.
    console.error(`test run directory ${runDir} not fully removed: ${(error as Error).message}`);
  }
}

// A preloaded afterAll runs once, after every file; the exit handler covers a run that ends early, and the
// signal handlers one that is stopped (Ctrl-C, a CI timeout's SIGTERM): a signal's default action ends the
// process without "exit", which would leave the run's directory and its servers (PostgreSQL, Redis) behind.
afterAll(endRun);
process.on("exit", cleanUp);
for (const [signal, number] of [["SIGINT", 2], ["SIGTERM", 15], ["SIGHUP", 1]] as const) {
  process.once(signal, () => process.exit(128 + number));
}
