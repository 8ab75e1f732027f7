import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SR28_DIR } from "./paths";

const cache = new Map<string, Buffer>();

/**
 * One SR28 file's original bytes from SR28_DIR, `.txt.zst` or `.txt`, read here with Bun's zstd directly
 * rather than through the importer's source, so the fixtures and the oracle share no code with it.
 */
export function sr28File(name: string): Buffer {
  let bytes = cache.get(name);
  if (!bytes) {
    const packed = join(SR28_DIR, `${name}.zst`);
    bytes = existsSync(packed) ? Buffer.from(Bun.zstdDecompressSync(readFileSync(packed))) : readFileSync(join(SR28_DIR, name));
    cache.set(name, bytes);
  }
  return bytes;
}
