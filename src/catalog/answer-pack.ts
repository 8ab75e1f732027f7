import { closeSync, openSync, writeSync } from "node:fs";

/**
 * The answers file as the binary embeds it: cut into frames of `FRAME_BYTES`, each compressed with zstd on
 * its own, so that the first start inflates it frame by frame into the file (a few MB in memory at a time,
 * two frames at once on Bun's thread pool) rather than all of it (~180 MB) at once. The JSON compresses to
 * almost nothing (~140 MB to a few MB: the answers repeat their field names and nutrient names); the stored
 * forms are already compressed and stay their size.
 *
 * Layout (little-endian): u32 frames, u64 inflated length, u32 × frames compressed lengths, the frames.
 */
const FRAME_BYTES = 8 * 1024 * 1024;
const IN_FLIGHT = 2;

export function packAnswers(file: Uint8Array, level: number): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let at = 0; at < file.byteLength; at += FRAME_BYTES) frames.push(Bun.zstdCompressSync(file.subarray(at, at + FRAME_BYTES), { level }));
  const head = new DataView(new ArrayBuffer(12 + frames.length * 4));
  head.setUint32(0, frames.length, true);
  head.setBigUint64(4, BigInt(file.byteLength), true);
  frames.forEach((frame, i) => head.setUint32(12 + i * 4, frame.byteLength, true));
  return Buffer.concat([new Uint8Array(head.buffer), ...frames]);
}

/** Inflates `packed` into the file at `path` (empty), in order; throws when it is not what its header says. */
export async function unpackAnswers(packed: Uint8Array, path: string): Promise<void> {
  const head = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const count = head.getUint32(0, true);
  const total = Number(head.getBigUint64(4, true));
  const frames: Uint8Array[] = [];
  let at = 12 + count * 4;
  for (let i = 0; i < count; i++) {
    const length = head.getUint32(12 + i * 4, true);
    frames.push(packed.subarray(at, at + length));
    at += length;
  }
  if (at !== packed.byteLength) throw new Error("the embedded answers are not the length their header says");
  const fd = openSync(path, "r+");
  try {
    let written = 0;
    const pending: Promise<Uint8Array>[] = [];
    for (let next = 0; next < count || pending.length > 0; ) {
      while (pending.length < IN_FLIGHT && next < count) pending.push(Bun.zstdDecompress(frames[next++]!));
      const bytes = await pending.shift()!;
      for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done, written + done);
      written += bytes.byteLength;
    }
    if (written !== total) throw new Error("the embedded answers inflate to another length than their header says");
  } finally {
    closeSync(fd);
  }
}
