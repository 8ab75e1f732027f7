/**
 * What this machine charges for a page of memory a process touches for the first time: the price a start
 * pays for every page of heap it makes (a start of foodapi makes ~14 MB) and a steady server does not. On a
 * guest whose host backs its memory lazily and takes freed memory back (free page reporting), it is most of
 * what moves a start from one hour to the next (docs/performance.md, "The machine's phases and the starts").
 *
 * Fresh anonymous pages are mapped through libc's mmap (bun:ffi) and written once each, one byte a page:
 * first as the kernel maps them at the first write (a page fault each), then pages the kernel mapped ahead
 * (MAP_POPULATE: no fault of the guest's own; what is left is the host's), then the first set again (the
 * pages already there: what the loop itself costs). Linux only.
 */
import { dlopen, FFIType, type Pointer, toArrayBuffer } from "bun:ffi";
import { median, round } from "./numbers";

const PAGE = 4096;
const PROT_READ_WRITE = 0x1 | 0x2;
const MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
const MAP_POPULATE = 0x8000;

export interface PageTouchCost {
  /** µs a page: the first write to a fresh page, the kernel mapping it then. */
  faultedMicros: number;
  /** µs a page: the first write to a page the kernel mapped ahead. */
  populatedMicros: number;
  /** µs a page: the same pages written again. */
  againMicros: number;
}

/** Each figure the median of `runs` passes over `megabytes` MB of fresh pages. */
export function pageTouchCost(megabytes = 16, runs = 3): PageTouchCost {
  const libc = dlopen("libc.so.6", {
    mmap: { args: [FFIType.ptr, FFIType.u64, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i64], returns: FFIType.ptr },
    munmap: { args: [FFIType.ptr, FFIType.u64], returns: FFIType.i32 },
  });
  const bytes = megabytes * 1024 * 1024;
  const pages = bytes / PAGE;
  const passes: PageTouchCost[] = [];
  try {
    const map = (flags: number): Pointer => {
      const at: unknown = libc.symbols.mmap(null, bytes, PROT_READ_WRITE, flags, -1, 0);
      // MAP_FAILED is (void *) -1, which is no address a process is given.
      if (typeof at !== "number" || at <= 0) throw new Error("page touch: mmap failed");
      return at as Pointer;
    };
    const writeEach = (view: Uint8Array, value: number): number => {
      const started = Bun.nanoseconds();
      for (let at = 0; at < bytes; at += PAGE) view[at] = value;
      return (Bun.nanoseconds() - started) / 1000 / pages;
    };
    for (let run = 0; run < runs; run++) {
      const faulted = map(MAP_PRIVATE_ANONYMOUS);
      const populated = map(MAP_PRIVATE_ANONYMOUS | MAP_POPULATE);
      try {
        const faultedView = new Uint8Array(toArrayBuffer(faulted, 0, bytes));
        const faultedMicros = writeEach(faultedView, 1);
        const populatedMicros = writeEach(new Uint8Array(toArrayBuffer(populated, 0, bytes)), 1);
        const againMicros = writeEach(faultedView, 2);
        passes.push({ faultedMicros, populatedMicros, againMicros });
      } finally {
        libc.symbols.munmap(faulted, bytes);
        libc.symbols.munmap(populated, bytes);
      }
    }
  } finally {
    libc.close();
  }
  const middle = (pick: (p: PageTouchCost) => number) => round(median(passes.map(pick)), 3);
  return { faultedMicros: middle((p) => p.faultedMicros), populatedMicros: middle((p) => p.populatedMicros), againMicros: middle((p) => p.againMicros) };
}
