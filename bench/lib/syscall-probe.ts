import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The ways bench/syscall-server.ts sends a body, each a part of how foodapi answers a detail against how its
 * floor does (bench/floor.ts), in the order bench/syscall-cost.ts reports them; the first is the others' baseline.
 */
export const PROBE_WAYS = {
  memory: "a view of the bodies in the heap (the floor's details)",
  peer: "the same, and the TCP peer asked of the server (requestIP: one getpeername, as both access logs do)",
  pread: "read from the file into one reused buffer (one pread: foodapi's plain JSON)",
  mapped: "a view of the file mapped (no system call; the pages count in RSS: foodapi's coded forms)",
} as const;
export type ProbeWay = keyof typeof PROBE_WAYS;
export const isProbeWay = (way: string): way is ProbeWay => Object.hasOwn(PROBE_WAYS, way);

/**
 * The bodies bench/syscall-server.ts answers with: PROBE_BODIES JSON documents of 12-20 KB (plain food details
 * are 15.9 KB at the median), one after another in one file, with an index of where each is. The same
 * bytes for every way of sending them, so that the ways differ only in how the bytes reach the Response.
 */
export const PROBE_BODIES = 2000;
/** The bodies' lengths, bytes: the shortest and just past the longest. */
export const PROBE_SHORTEST = 12_000;
export const PROBE_LONGEST = 20_000;
/** Request n is answered with body (n x STRIDE) mod PROBE_BODIES: every body in turn, in an order no cache line or readahead follows. */
const STRIDE = 7919;

export interface ProbeIndex {
  /** [offset, length] of each body in the file. */
  bodies: [number, number][];
}

/** Writes bodies.bin and index.json into `dir` (deterministic: the same bytes on every run). */
export function writeProbeBodies(dir: string): { file: string; index: string } {
  let seed = 0x2545f491;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const letters = "abcdefghijklmnopqrstuvwxyz0123456789 ";
  const parts: Uint8Array[] = [];
  const bodies: [number, number][] = [];
  let at = 0;
  for (let i = 0; i < PROBE_BODIES; i++) {
    const length = PROBE_SHORTEST + Math.floor(next() * (PROBE_LONGEST - PROBE_SHORTEST));
    const frame = `{"body":${i},"text":""}`;
    let text = "";
    while (text.length < length - frame.length) text += letters[Math.floor(next() * letters.length)];
    const bytes = Buffer.from(`{"body":${i},"text":"${text}"}`, "latin1");
    parts.push(bytes);
    bodies.push([at, bytes.byteLength]);
    at += bytes.byteLength;
  }
  const file = join(dir, "bodies.bin");
  const index = join(dir, "index.json");
  writeFileSync(file, Buffer.concat(parts), { mode: 0o600, flag: "wx" });
  writeFileSync(index, JSON.stringify({ bodies } satisfies ProbeIndex), { mode: 0o600, flag: "wx" });
  return { file, index };
}

export function readProbeIndex(path: string): ProbeIndex {
  return JSON.parse(readFileSync(path, "utf8")) as ProbeIndex;
}

/** Which body the `n`th request (from 0) of a server's life is answered with. */
export const probeBodyOf = (n: number, count: number): number => (n * STRIDE) % count;
