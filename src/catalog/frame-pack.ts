import { closeSync, openSync, writeSync } from "node:fs";

/**
 * A file as the binary embeds it (the catalog database, the answers file): cut into frames of `FRAME_BYTES`,
 * each compressed with zstd on its own, so that the first start inflates it frame by frame into the file (a
 * few MB in memory at a time, two frames at once on Bun's thread pool) rather than all of it at once. Smaller
 * frames lose a little compression (2 MB frames: +2 % of the packed answers against 8 MB ones, +11 % of the
 * packed database against one piece, 0.6 MB) and hold far less at once. The database is inflated and
 * written in 40-140 ms so, against 200-360 ms to inflate it in one piece and 85-130 more to write it. The answers'
 * JSON compresses to almost nothing (~140 MB to a few MB: the answers repeat their field names and nutrient
 * names); the stored forms are already compressed and stay their size.
 *
 * Layout (little-endian): u32 frames, u64 inflated length, u32 × frames compressed lengths, the frames.
 */
export const FRAME_BYTES = 2 * 1024 * 1024;
const IN_FLIGHT = 2;

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
 * Inflates `packed` (a file: the binary's embedded one) into the file at `path` (empty), in order, reading
 * one frame at a time; throws when it is not what its header says.
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
  const inflate = async ({ from, to }: { from: number; to: number }) => Bun.zstdDecompress(await packed.slice(from, to).bytes());
  const fd = openSync(path, "r+");
  try {
    let written = 0;
    const pending: Promise<Uint8Array>[] = [];
    for (let next = 0; next < count || pending.length > 0; ) {
      while (pending.length < IN_FLIGHT && next < count) pending.push(inflate(frames[next++]!));
      const bytes = await pending.shift()!;
      for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done, written + done);
      written += bytes.byteLength;
      // Each frame's buffers are garbage once written: collected as they go, the expansion holds a few MB
      // at a time instead of tens.
      Bun.gc(false);
    }
    if (written !== total) throw new Error("an embedded file inflates to another length than its header says");
  } finally {
    closeSync(fd);
  }
}
