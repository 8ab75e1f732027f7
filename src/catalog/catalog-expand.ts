import { Database } from "bun:sqlite";
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ANSWER_FILE_SUFFIX, writeAnswerFile } from "./answer-file";
import { unpackFrames } from "./frame-pack";
import { createFileBeside } from "../platform/storage/file-beside";

/** The two files a served catalog is read from: its SQLite database and its answers file (answer-file.ts). */
export interface CatalogFiles {
  readonly catalog: string;
  readonly answers: string;
}

/**
 * Expands the files embedded in the binary (`embedded`: the catalog without its detail answers and the
 * answers file, each packed in zstd frames, frame-pack.ts) into `cacheDir` as `catalog-<id>.sqlite` and
 * `catalog-<id>.v<N>.answers`, each unless it is there already. Nothing is computed: both were made at
 * build time (scripts/compress-catalog.ts), so the first start only inflates and writes.
 * Several processes may race to do it: each writes its own partial file (in a private directory beside the
 * target: ../platform/storage/file-beside.ts) and renames it into place, so a reader never sees a
 * half-written one; the data is flushed before the rename, so a crash cannot leave a short file under the
 * final name, which later starts trust without reading it. Throws on failure, after removing its partial file.
 */
export async function expandCatalog(embedded: CatalogFiles, id: string, cacheDir: string): Promise<CatalogFiles> {
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const files = { catalog: join(cacheDir, catalogFileName(id)), answers: join(cacheDir, answersFileName(id)) };
  // Bun.file: node:fs cannot open a file inside the binary.
  if (!existsSync(files.answers)) await writeInPlace(files.answers, (path) => unpackFrames(Bun.file(embedded.answers), path));
  if (!existsSync(files.catalog)) await writeInPlace(files.catalog, (path) => unpackFrames(Bun.file(embedded.catalog), path));
  // What the expansion leaves (the memory its released buffers were in, its promises) would otherwise stay
  // resident in the server that expanded them: ~10 MB of anonymous memory at its first answer, 21-27 without.
  Bun.gc(true);
  // Copies from earlier builds are dead weight; a process still reading one keeps it open until it exits.
  // (The private directories of expansions killed midway went when this one's were made:
  // ../platform/storage/file-beside.ts.) Partial files beside the target, without a directory of their own,
  // are an earlier release's, and as old as it.
  for (const old of readdirSync(cacheDir)) {
    const path = join(cacheDir, old);
    if (EXPANDED.test(old) && path !== files.catalog && path !== files.answers) rmSync(path, { force: true });
    if (/^catalog-[0-9a-f]+\.sqlite\.partial-\d+$/.test(old) && abandoned(path)) rmSync(path, { force: true });
  }
  return files;
}

/** Every build's expanded files, whatever the version of their answers file. */
const EXPANDED = /^catalog-[0-9a-f]+\.(?:sqlite|v\d+\.answers)$/;
/** The answers files made for catalogs named by --catalog (`answersForCatalogFile`). */
const DERIVED = /^catalog-file-[0-9a-f]+\.v\d+\.answers$/;

/**
 * The answers file of a catalog file written by `foodapi import` (`--catalog`, or dist/catalog.sqlite when
 * running from source), made from its `food_details` into `cacheDir` the first time that file is served and
 * named by the file's identity (path, inode, size, modification time), so that a new import makes a new
 * one. Only one is kept: making one removes those of other catalog files (a server still reading one keeps
 * it until it exits).
 */
export async function answersForCatalogFile(
  catalogPath: string,
  catalog: Database,
  cacheDir: string,
  log?: (line: string) => void,
  checkBeforeMaking: () => void = () => {},
): Promise<string> {
  const file = statSync(catalogPath);
  const identity = [realpathSync(catalogPath), file.dev, file.ino, file.size, file.mtimeMs].join("\0");
  const name = `catalog-file-${new Bun.CryptoHasher("sha256").update(identity).digest("hex").slice(0, 16)}${ANSWER_FILE_SUFFIX}`;
  const target = join(cacheDir, name);
  if (existsSync(target)) return target;
  checkBeforeMaking();
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  log?.(`preparing the detail answers of ${catalogPath} in ${target} …`);
  await writeInPlace(target, (path) => writeAnswerFile(catalog, path));
  for (const old of readdirSync(cacheDir)) if (DERIVED.test(old) && old !== name) rmSync(join(cacheDir, old), { force: true });
  return target;
}

/** Writes a new file through `write` and renames it to `target` once flushed (file-beside.ts). */
async function writeInPlace(target: string, write: (path: string) => unknown): Promise<void> {
  const partial = createFileBeside(target, 0o644);
  try {
    await write(partial.path);
    partial.putInPlace();
  } finally {
    partial.remove();
  }
}

/** No expansion takes this long, even emulated: the linux-arm64 release test, under qemu, is over in ~13 s. */
const ABANDONED_AFTER_MS = 10 * 60_000;

function abandoned(path: string): boolean {
  const found = lstatSync(path, { throwIfNoEntry: false });
  return found !== undefined && found.isFile() && Date.now() - found.mtimeMs > ABANDONED_AFTER_MS;
}

export function catalogFileName(id: string): string {
  return `catalog-${id}.sqlite`;
}

export function answersFileName(id: string): string {
  return `catalog-${id}${ANSWER_FILE_SUFFIX}`;
}
