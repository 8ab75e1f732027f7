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

// A preloaded afterAll runs once, after every file; the exit handler covers a run that ends early.
afterAll(cleanUp);
process.on("exit", cleanUp);
