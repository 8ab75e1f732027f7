import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { restoreFoodDetails } from "./import/sqlite-details";
import { createFileBeside } from "../platform/storage/file-beside";

/**
 * Expands the compressed catalog at `source` (inside the binary) into `cacheDir` as `catalog-<id>.sqlite`:
 * decompresses it, then rebuilds the detail answers the embedded form leaves out (../catalog/import/sqlite-details.ts).
 * Several processes may race to do it: each writes its own partial file (in a private directory beside the
 * target: ./file-beside.ts) and renames it into place, so a reader never sees a half-written one; the data
 * is flushed before the rename, so a crash cannot leave a short file under the final name, which later
 * starts trust without reading it. Throws on failure, after removing its partial file.
 *
 * Decompressing in one piece, in this process: streaming kept more memory resident for good (the embedded
 * file's pages it read stay mapped) and was slower (figures: docs/performance.md).
 */
export async function expandCatalog(source: string, id: string, cacheDir: string): Promise<string> {
  const name = catalogFileName(id);
  const target = join(cacheDir, name);
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const partial = createFileBeside(target, 0o644);
  try {
    // Bun.file: node:fs cannot open a file inside the binary.
    writeAll(partial.path, Bun.zstdDecompressSync(await Bun.file(source).bytes()));
    await restoreFoodDetails(partial.path);
    // The rebuild's garbage (~100 MB of rows and answers) would otherwise stay resident, for good, in the
    // server that expanded the catalog: collected now, it leaves what a later start has (~50 MB).
    Bun.gc(true);
    // One flush for the decompressed pages and the rebuilt ones (SQLite itself was told not to).
    partial.putInPlace();
  } finally {
    partial.remove();
  }
  // Copies from earlier builds are dead weight; a process still reading one keeps it open until it exits.
  // (The private directories of expansions killed midway, 44 MB each, went when this one's was made:
  // ./file-beside.ts.) Partial files beside the target, without a directory of their own, are an earlier
  // release's, and as old as it.
  for (const old of readdirSync(cacheDir)) {
    const path = join(cacheDir, old);
    if (/^catalog-[0-9a-f]+\.sqlite$/.test(old) && old !== name) rmSync(path, { force: true });
    if (/^catalog-[0-9a-f]+\.sqlite\.partial-\d+$/.test(old) && abandoned(path)) rmSync(path, { force: true });
  }
  return target;
}

/** No expansion takes this long, even emulated: the linux-arm64 release test, under qemu, is over in ~13 s. */
const ABANDONED_AFTER_MS = 10 * 60_000;

function abandoned(path: string): boolean {
  const found = lstatSync(path, { throwIfNoEntry: false });
  return found !== undefined && found.isFile() && Date.now() - found.mtimeMs > ABANDONED_AFTER_MS;
}

function writeAll(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, "r+");
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

export function catalogFileName(id: string): string {
  return `catalog-${id}.sqlite`;
}
