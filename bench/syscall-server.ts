/**
 * A bare Bun.serve that answers every request with the next of bench/syscall-cost.ts's bodies, sent one way
 * of PROBE_WAYS (bench/lib/syscall-probe.ts): from the heap, from the heap with the peer asked, read from the
 * file, or viewed in the file mapped. Nothing else happens per request, so that the ways' difference is
 * what that way of sending costs a request on this machine. Loopback only.
 *
 * Usage: bun bench/syscall-server.ts WAY DIR   (DIR holds bodies.bin and index.json; SYSCALL_PORT=0 picks a free port)
 * Prints "syscall-server listening on http://127.0.0.1:PORT (WAY)" on stderr; SIGTERM/SIGINT stop it.
 */
import { openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readInto } from "../src/catalog/answer-file";
import { isProbeWay, probeBodyOf, readProbeIndex } from "./lib/syscall-probe";

const [way, dir] = process.argv.slice(2);
if (way === undefined || !isProbeWay(way) || dir === undefined) {
  console.error("syscall-server: usage: bun bench/syscall-server.ts memory|peer|pread|mapped DIR");
  process.exit(2);
}
const { bodies } = readProbeIndex(join(dir, "index.json"));
const file = join(dir, "bodies.bin");
const heap = way === "memory" || way === "peer" ? new Uint8Array(readFileSync(file)) : undefined;
const mapped = way === "mapped" ? Bun.mmap(file, { shared: false }) : undefined;
const fd = way === "pread" ? openSync(file, "r") : -1;
const buffer = new Uint8Array(new ArrayBuffer(64 * 1024));
const headers = { "content-type": "application/json; charset=utf-8" };

/** The body's bytes, as this way gets them: a Response copies them when it is made, so one buffer serves every read. */
function bytesOf(offset: number, length: number): Uint8Array {
  if (heap) return heap.subarray(offset, offset + length);
  if (mapped) return mapped.subarray(offset, offset + length);
  // As foodapi reads a plain detail (src/catalog/answer-file.ts).
  const read = readInto(fd, buffer, offset, length);
  if (read.byteLength < length) throw new Error(`syscall-server: ${file} ends before body ${offset}+${length}`);
  return read;
}

let answered = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.SYSCALL_PORT ?? 0),
  fetch(request, server) {
    if (way === "peer") server.requestIP(request);
    const [offset, length] = bodies[probeBodyOf(answered++, bodies.length)]!;
    return new Response(bytesOf(offset, length), { headers });
  },
});
console.error(`syscall-server listening on http://127.0.0.1:${server.port} (${way})`);

const stop = () => {
  server.stop(true);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
