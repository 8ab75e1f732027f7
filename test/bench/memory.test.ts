import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseSmapsRollup, readSmapsRollup, type SmapsRollup } from "../../bench/lib/memory";
import { PRIVATE_MB_PER_EXTRA_WORKER, summarise } from "../../bench/lib/workers-memory";

// The workers' memory step (bench/lib/workers-memory.ts) reads /proc/<pid>/smaps_rollup: parsed here on a
// captured text and on this process's own, where the kernel's accounting gives checks that need no
// expected figure (every resident page is counted once, as shared or private, clean or dirty).

/** /proc/<pid>/smaps_rollup of a foodapi worker (`serve --workers 2`, Linux 6.18) after a few seconds of /healthz. */
const CAPTURED = `00200000-7ffde7ddb000 ---p 00000000 00:00 0                              [rollup]
Rss:               75584 kB
Pss:               49565 kB
Pss_Dirty:         24858 kB
Pss_Anon:          24648 kB
Pss_File:          24917 kB
Pss_Shmem:             0 kB
Shared_Clean:      49836 kB
Shared_Dirty:        404 kB
Private_Clean:       688 kB
Private_Dirty:     24656 kB
Referenced:        75584 kB
Anonymous:         24648 kB
KSM:                   0 kB
LazyFree:              0 kB
AnonHugePages:      2048 kB
ShmemPmdMapped:        0 kB
FilePmdMapped:         0 kB
Shared_Hugetlb:        0 kB
Private_Hugetlb:       0 kB
Swap:                  0 kB
SwapPss:               0 kB
Locked:                0 kB
`;

test("a captured smaps_rollup: Rss, Pss, Private_* and Shared_* summed, Anonymous (kB)", () => {
  expect(parseSmapsRollup(CAPTURED)).toEqual({ rssKb: 75584, pssKb: 49565, privateKb: 688 + 24656, sharedKb: 49836 + 404, anonymousKb: 24648 });
});

test("this process's own smaps_rollup: private and shared add up to Rss, Pss lies between private and Rss, and Rss is about VmRSS", () => {
  const own = parseSmapsRollup(readFileSync("/proc/self/smaps_rollup", "utf8"));
  const vmRssKb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"))![1]);
  expect(own.privateKb + own.sharedKb).toBe(own.rssKb);
  expect(own.pssKb).toBeGreaterThanOrEqual(own.privateKb);
  expect(own.pssKb).toBeLessThanOrEqual(own.rssKb);
  // A Bun process: tens of MB of heap, not a few kB or tens of GB (a unit read wrong).
  expect(own.anonymousKb).toBeGreaterThan(1024);
  expect(own.anonymousKb).toBeLessThanOrEqual(own.rssKb);
  // Read a moment apart; the heap may move in between, not by a quarter.
  expect(Math.abs(own.rssKb - vmRssKb)).toBeLessThan(vmRssKb / 4);
});

test("another file's text (here /proc/self/status) is refused, naming the fields it lacks", () => {
  expect(() => parseSmapsRollup(readFileSync("/proc/self/status", "utf8"))).toThrow(/smaps_rollup: no Rss, Pss, Private_Clean/);
});

test("a process that has gone reads as undefined", async () => {
  const child = Bun.spawn(["true"], { stdout: "ignore", stderr: "ignore" });
  await child.exited;
  expect(readSmapsRollup(child.pid)).toBeUndefined();
  expect(readSmapsRollup(process.pid)?.rssKb).toBeGreaterThan(0);
});

test("each worker beyond the first: the growth of the tree's private (and Pss) total over the one-worker tree, per added worker, against the target", () => {
  const rollup = (privateKb: number, sharedKb: number, pssKb: number): SmapsRollup => ({ rssKb: privateKb + sharedKb, pssKb, privateKb, sharedKb, anonymousKb: privateKb });
  const one = [rollup(100 * 1024, 50 * 1024, 120 * 1024)];
  const two = [rollup(90 * 1024, 60 * 1024, 110 * 1024), rollup(40 * 1024, 60 * 1024, 70 * 1024)];
  const four = [...two, rollup(50 * 1024, 60 * 1024, 75 * 1024), rollup(160 * 1024, 60 * 1024, 185 * 1024)];
  const { totals, beyondFirst } = summarise([
    { workers: 1, processes: one },
    { workers: 2, processes: two },
    { workers: 4, processes: four },
  ]);
  expect(totals.map((t) => [t.privateMb, t.sharedMb, t.rssMb])).toEqual([
    [100, 50, 150],
    [130, 120, 250],
    [340, 240, 580],
  ]);
  expect(beyondFirst).toEqual([
    { workers: 2, privateMb: 30, pssMb: 60, ownPrivateMb: 40, targetMb: PRIVATE_MB_PER_EXTRA_WORKER, met: true, pssMet: true },
    { workers: 4, privateMb: 80, pssMb: 106.7, ownPrivateMb: 160, targetMb: PRIVATE_MB_PER_EXTRA_WORKER, met: false, pssMet: false },
  ]);
});
