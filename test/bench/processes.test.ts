import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { cleanup, tempDir, track } from "../../bench/lib/processes";

// Every test file runs in one bun test process, and several call cleanup() when they end: a later file's
// processes and directories must be removed by its own cleanup(), not only by the first file's.
test("cleanup() stops the processes and removes the directories made since an earlier cleanup()", async () => {
  cleanup();
  const child = track(Bun.spawn(["sleep", "30"]));
  const dir = tempDir("foodapi-bench-cleanup-test-");
  try {
    cleanup();
    const ended = await Promise.race([child.exited.then(() => "stopped"), Bun.sleep(5_000).then(() => "still running")]);
    expect([ended, existsSync(dir)]).toEqual(["stopped", false]);
  } finally {
    child.kill("SIGKILL");
  }
});
