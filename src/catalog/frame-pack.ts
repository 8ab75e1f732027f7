import { closeSync, openSync, write } from "node:fs";

/**
 * A file as the binary embeds it (the catalog database, the answers file): cut into frames of `FRAME_BYTES`,
 * each compressed with zstd on its own, so that the first start inflates it frame by frame into the file
 * (two frames at once on Bun's thread pool) rather than all of it at once in memory. Smaller frames lose a
 * little compression (2 MB frames: +2 % of the packed answers against 8 MB ones, +11 % of the packed
 * database against one piece, 0.6 MB) and hold far less at once. The database is inflated and
 * written in 40-140 ms so, against 200-360 ms to inflate it in one piece and 85-130 more to write it. The answers'
 * JSON compresses to almost nothing (~140 MB to a few MB: the answers repeat their field names and nutrient
 * names); the stored forms are already compressed and stay their size.
 *
 * Layout (little-endian): u32 frames, u64 inflated length, u32 × frames compressed lengths, the frames.
 */
export const FRAME_BYTES = 2 * 1024 * 1024;
/** Frames inflated, and frames written, at once on the thread pool. */
export const FRAMES_IN_FLIGHT = 2;

export function packFrames(file: Uint8Array, level: number): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let at = 0; at < file.byteLength; at += FRAME_BYTES) frames.push(Bun.zstdCompressSync(file.subarray(at, at + FRAME_BYTES), { level }));
  const head = new DataView(new ArrayBuffer(12 + frames.length * 4));
  head.setUint32(0, frames.length, true);
  head.setBigUint64(4, BigInt(file.byteLength), true);
  frames.forEach((frame, i) => head.setUint32(12 + i * 4, frame.byteLength, true));
  return Buffer.concat([new Uint8Array(head.buffer), ...frames]);
}

/**
 * Inflates `packed` (a file: the binary's embedded one) into the file at `path` (empty), in order; throws
 * when it is not what its header says. Frames are inflated and written on Bun's thread pool, two of each at
 * a time, and each frame's buffers are given back as soon as they are used (`release`): what a first start
 * waits for is mostly the kernel giving it fresh pages (docs/performance.md, "The first start's buffers
 * given back at once"). Left to the collector, every buffer was still in flight at some collection,
 * promoted, and kept until a whole one, and each new buffer was fresh pages.
 */
export async function unpackFrames(packed: Blob, path: string): Promise<void> {
  const start = new DataView((await packed.slice(0, 12).bytes()).buffer);
  const count = start.getUint32(0, true);
  const total = Number(start.getBigUint64(4, true));
  const lengths = new DataView((await packed.slice(12, 12 + count * 4).bytes()).buffer);
  const frames: { from: number; to: number }[] = [];
  let at = 12 + count * 4;
  for (let i = 0; i < count; i++) {
    const length = lengths.getUint32(i * 4, true);
    frames.push({ from: at, to: at + length });
    at += length;
  }
  if (at !== packed.size) throw new Error("an embedded file is not the length its header says");
  const inflate = async ({ from, to }: { from: number; to: number }) => {
    const compressed = await packed.slice(from, to).bytes();
    const inflated = await Bun.zstdDecompress(compressed);
    release(compressed);
    return inflated;
  };
  // Awaited in turn, later: a frame that fails while an earlier one is awaited is not an unhandled rejection.
  const inTurn = <T>(promise: Promise<T>) => (promise.catch(() => {}), promise);
  const fd = openSync(path, "r+");
  const writing: Promise<void>[] = [];
  try {
    let written = 0;
    const inflating: Promise<Uint8Array>[] = [];
    for (let next = 0; next < count || inflating.length > 0; ) {
      while (inflating.length < FRAMES_IN_FLIGHT && next < count) inflating.push(inTurn(inflate(frames[next++]!)));
      const bytes = await inflating.shift()!;
      writing.push(inTurn(writeAt(fd, bytes, written).then(() => release(bytes))));
      written += bytes.byteLength;
      if (writing.length >= FRAMES_IN_FLIGHT) await writing.shift();
    }
    await Promise.all(writing);
    if (written !== total) throw new Error("an embedded file inflates to another length than its header says");
  } finally {
    // A failed frame leaves the other writes running: they end before the file is closed (and removed).
    await Promise.allSettled(writing);
    closeSync(fd);
  }
}

/**
 * Gives a buffer's memory back now rather than at a collection: detaching its ArrayBuffer frees the bytes at
 * once, so the next frame's buffer reuses them instead of faulting in fresh pages. Only a buffer this module
 * made and no one else views (the whole of its ArrayBuffer).
 */
function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) buffer.transfer(0);
}

/**
 * All of `bytes` written at `offset` of the file open as `fd`, on the thread pool (node:fs's callback form:
 * node:fs/promises would be one more module for every start to load, though only a first start writes).
 */
async function writeAt(fd: number, bytes: Uint8Array, offset: number): Promise<void> {
  for (let done = 0; done < bytes.byteLength; ) {
    done += await new Promise<number>((resolve, reject) =>
      write(fd, bytes, done, bytes.byteLength - done, offset + done, (error, count) =>
        error ? reject(error) : count > 0 ? resolve(count) : reject(new Error("the cache directory's disk took no more bytes")),
      ),
    );
  }
}
