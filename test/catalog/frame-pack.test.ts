import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FRAME_BYTES, packFrames, unpackFrames } from "../../src/catalog/frame-pack";

const dir = mkdtempSync(join(tmpdir(), "foodapi-frames-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bytes that do not compress to nothing: a counter mixed with a cheap hash, over several frames and a short last one. */
function sample(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (Math.imul(i, 2654435761) >>> 24) ^ (i & 0xff);
  return bytes;
}

/** An empty file to unpack into, as the expansion hands one over. */
function emptyFile(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, "");
  return path;
}

test("a file packed in frames unpacks to the same bytes, each frame written at its place while the next inflate", async () => {
  const original = sample(5 * FRAME_BYTES + 12_345);
  const path = emptyFile("whole");
  await unpackFrames(new Blob([packFrames(original, 1)]), path);
  expect(Buffer.compare(readFileSync(path), original)).toBe(0);
});

test("a damaged frame stops the unpacking with an error, after every write in flight has ended", async () => {
  const packed = packFrames(sample(4 * FRAME_BYTES), 1);
  // The third frame's bytes: past the header (12 bytes, then a length per frame) and the first two frames.
  const lengths = new DataView(packed.buffer, packed.byteOffset + 12);
  const third = 12 + 4 * 4 + lengths.getUint32(0, true) + lengths.getUint32(4, true);
  const damaged = packed.slice();
  damaged.fill(0x55, third, third + 64);
  const path = emptyFile("damaged");
  await expect(unpackFrames(new Blob([damaged]), path)).rejects.toThrow();
  // Nothing writes after the promise settled: the file the caller now removes stays as it was left.
  const left = readFileSync(path).byteLength;
  await Bun.sleep(50);
  expect(readFileSync(path).byteLength).toBe(left);
  expect(left).toBeLessThanOrEqual(3 * FRAME_BYTES);
});

test("a packed file shorter than its header says is refused before anything is written", async () => {
  const packed = packFrames(sample(2 * FRAME_BYTES), 1);
  const path = emptyFile("short");
  await expect(unpackFrames(new Blob([packed.subarray(0, packed.byteLength - 10)]), path)).rejects.toThrow("not the length its header says");
  expect(readFileSync(path).byteLength).toBe(0);
});
