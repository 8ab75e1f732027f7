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
