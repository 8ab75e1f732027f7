import { readFileSync } from "node:fs";
import { round } from "./numbers";
import { descendants, memoryKb } from "./processes";

export interface MemorySampler {
  stop(): MemoryReport;
}
export interface MemoryReport {
  /** Largest sum of VmRSS over the whole process tree, sampled every 200 ms. */
  peakTotalRssMb: number;
  /** Largest VmHWM (lifetime peak RSS) of any one process of the tree: the per-worker figure. */
  peakRssPerProcessMb: number;
  /** Largest RssAnon of any one process (heap, not the file-backed pages of the mapped executable). */
  peakAnonRssPerProcessMb: number;
  processes: number;
}

/** Samples the process tree under `root` every 200 ms until stopped. */
export function sampleMemory(root: number, withTree: boolean): MemorySampler {
  let peakTotal = 0;
  const hwm = new Map<number, number>();
  let peakAnon = 0;
  const sample = () => {
    const pids = withTree ? [root, ...descendants(root)] : [root];
    let total = 0;
    for (const pid of pids) {
      const memory = memoryKb(pid);
      if (!memory) continue;
      total += memory.rss;
      hwm.set(pid, Math.max(hwm.get(pid) ?? 0, memory.hwm, memory.rss));
      peakAnon = Math.max(peakAnon, memory.anon);
    }
    peakTotal = Math.max(peakTotal, total);
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return {
        peakTotalRssMb: round(peakTotal / 1024, 1),
        peakRssPerProcessMb: round(Math.max(0, ...hwm.values()) / 1024, 1),
        peakAnonRssPerProcessMb: round(peakAnon / 1024, 1),
        processes: hwm.size,
      };
    },
  };
}

/**
 * One process's memory from /proc/<pid>/smaps_rollup (kB): what it maps alone (Private_*) against what it
 * shares with other processes (Shared_*: the executable's pages and the page cache another worker maps too),
 * and Pss, each shared page divided among the processes that map it.
 */
export interface SmapsRollup {
  rssKb: number;
  pssKb: number;
  /** Private_Clean + Private_Dirty. */
  privateKb: number;
  /** Shared_Clean + Shared_Dirty. */
  sharedKb: number;
  anonymousKb: number;
}

const ROLLUP_FIELDS = ["Rss", "Pss", "Private_Clean", "Private_Dirty", "Shared_Clean", "Shared_Dirty", "Anonymous"] as const;

/** Parses the text of /proc/<pid>/smaps_rollup; throws naming the fields it lacks (not that file, or a kernel before 4.14). */
export function parseSmapsRollup(text: string): SmapsRollup {
  const kb = new Map<string, number>();
  for (const match of text.matchAll(/^(\w+):\s+(\d+) kB$/gm)) kb.set(match[1]!, Number(match[2]!));
  const missing = ROLLUP_FIELDS.filter((name) => !kb.has(name));
  if (missing.length) throw new Error(`smaps_rollup: no ${missing.join(", ")} in ${JSON.stringify(text.slice(0, 80))}`);
  const field = (name: (typeof ROLLUP_FIELDS)[number]) => kb.get(name)!;
  return {
    rssKb: field("Rss"),
    pssKb: field("Pss"),
    privateKb: field("Private_Clean") + field("Private_Dirty"),
    sharedKb: field("Shared_Clean") + field("Shared_Dirty"),
    anonymousKb: field("Anonymous"),
  };
}

/** /proc/<pid>/smaps_rollup, parsed; undefined when the process has gone (or is a zombie: its file is empty). */
export function readSmapsRollup(pid: number): SmapsRollup | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  } catch {
    return undefined;
  }
  return text ? parseSmapsRollup(text) : undefined;
}
