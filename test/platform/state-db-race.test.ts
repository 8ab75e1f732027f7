import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PROCESSES = 120;
const root = mkdtempSync(join(tmpdir(), "foodapi-race-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Regression: WAL was set before busy_timeout, so processes starting together on a new data directory
// failed at once with "database is locked" instead of waiting their turn (58 of 120 did).
test(`${PROCESSES} processes opening one new data directory at the same moment all succeed`, async () => {
  const dataDir = join(root, "data");
  const children = Array.from({ length: PROCESSES }, () =>
    Bun.spawn([process.execPath, join(import.meta.dir, "../helpers/open-state-db.ts"), dataDir], { stdin: "pipe", stdout: "pipe", stderr: "inherit" }),
  );
  try {
    // A barrier: every process is loaded before any opens the database, so they really collide.
    const readers = children.map((child) => child.stdout.getReader());
    await Promise.all(readers.map(async (reader) => expect(new TextDecoder().decode((await reader.read()).value)).toBe("ready\n")));
    for (const child of children) child.stdin.end();
    const outcomes = await Promise.all(
      children.map(async (child, i) => {
        let rest = "";
        for (let chunk = await readers[i]!.read(); !chunk.done; chunk = await readers[i]!.read()) rest += new TextDecoder().decode(chunk.value);
        return { code: await child.exited, rest };
      }),
    );
    const failures = outcomes.filter((o) => o.code !== 0);
    expect(failures.map((f) => f.rest.trim())).toEqual([]);
  } finally {
    for (const child of children) child.kill();
  }
}, 120_000);
