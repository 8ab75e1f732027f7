import { readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { SR28_RELEASE_FILES, SR28_RELEASE_SHA256 } from "./sr28-release";
import { Sr28FormatError } from "./sr28-format";
import { readZip, ZipError } from "./zip";

/**
 * Where SR28's files come from, one abstraction for the importer and the pack script: a directory of the
 * ASCII `.txt` files, the same compressed one by one as `.txt.zst` (the repository's data/sr28), or the
 * USDA's own sr28asc.zip. A file is found by its name whatever the case (`food_des.txt` is FOOD_DES.txt)
 * and, in a zip, whatever folder it sits in. Every problem is a Sr28FormatError naming the file.
 */
export interface Sr28Source {
  /** The path for messages: relative to the current directory when inside it (`data/sr28`). */
  readonly label: string;
  /** What to do about a missing or altered file, appended to those messages. */
  readonly remedy: string;
  has(name: string): boolean;
  /** The file's original bytes (decompressed once, then kept). */
  read(name: string): Uint8Array;
}

interface Entry {
  /** The name as stored (`NUT_DATA.txt.zst`), for messages about the stored form. */
  readonly stored: string;
  readonly load: () => Uint8Array;
}

export function openSr28Source(path: string): Sr28Source {
  const absolute = resolve(path);
  const label = displayPath(absolute);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    throw new Sr28FormatError(label, null, "not found (expected a directory of SR28's .txt or .txt.zst files, or the USDA's sr28asc.zip)");
  }
  const entries = new Map<string, Entry>();
  const add = (name: string, entry: Entry) => {
    const key = name.toLowerCase();
    const other = entries.get(key);
    if (other) throw new Sr28FormatError(name, null, `found twice in ${label} (${other.stored} and ${entry.stored}); keep one`);
    entries.set(key, entry);
  };
  let remedy: string;
  if (isDirectory) {
    for (const stored of readdirSync(absolute)) {
      const file = `${absolute}/${stored}`;
      if (!statSync(file).isFile()) continue;
      if (stored.toLowerCase().endsWith(".zst")) add(stored.slice(0, -4), { stored, load: () => decompress(file, stored, label) });
      else add(stored, { stored, load: () => readFileSync(file) });
    }
    remedy = entries.has("sha256sums")
      ? `restore ${label} from the foodapi repository (git checkout -- data/sr28) or point FOODAPI_SR28_DIR at an unmodified copy of SR28`
      : `replace it with an unmodified copy of SR28 (data/sr28 of the foodapi repository, or the USDA's sr28asc.zip)`;
  } else {
    let zipEntries;
    try {
      zipEntries = readZip(readFileSync(absolute));
    } catch (error) {
      if (error instanceof ZipError) throw new Sr28FormatError(label, null, `${error.message}; expected a directory of SR28's files or the USDA's sr28asc.zip`);
      throw error;
    }
    for (const entry of zipEntries) {
      if (entry.name.endsWith("/")) continue;
      const name = entry.name.slice(entry.name.lastIndexOf("/") + 1);
      add(name, {
        stored: entry.name,
        load: () => {
          try {
            return entry.read();
          } catch (error) {
            if (error instanceof ZipError) throw new Sr28FormatError(label, null, `${error.message}; download sr28asc.zip again or import data/sr28 of the foodapi repository`);
            throw error;
          }
        },
      });
    }
    remedy = "download sr28asc.zip again from the USDA, or import data/sr28 of the foodapi repository";
  }

  const loaded = new Map<string, Uint8Array>();
  return {
    label,
    remedy,
    has: (name) => entries.has(name.toLowerCase()),
    read(name) {
      const key = name.toLowerCase();
      const entry = entries.get(key);
      if (!entry) throw new Sr28FormatError(name, null, `missing from ${label}`);
      let bytes = loaded.get(key);
      if (!bytes) loaded.set(key, (bytes = entry.load()));
      return bytes;
    },
  };
}

function decompress(file: string, stored: string, label: string): Uint8Array {
  try {
    return Bun.zstdDecompressSync(readFileSync(file));
  } catch (error) {
    throw new Sr28FormatError(
      stored,
      null,
      `cannot be decompressed (${(error as Error).message}); restore ${label} from the foodapi repository (git checkout -- data/sr28) or point FOODAPI_SR28_DIR at an unmodified copy of SR28`,
    );
  }
}

function displayPath(absolute: string): string {
  const inside = relative(process.cwd(), absolute);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : absolute;
}

/**
 * The one checksum rule. A source that carries a SHA256SUMS file (data/sr28 does) or every file of the
 * release (sr28asc.zip, an unpacked copy of it) claims to be SR28, so every file of the release must be
 * present with the release's SHA-256; anything is refused before a byte of the catalog is written. Any
 * other source (a subset, such as the tests' small fixtures) cannot be the release and is imported
 * unchecked: the returned note says so.
 */
export function verifySr28Source(source: Sr28Source): { checked: boolean; note: string } {
  const carriesRelease = source.has("SHA256SUMS") || SR28_RELEASE_FILES.every((name) => source.has(name));
  if (!carriesRelease) {
    const absent = SR28_RELEASE_FILES.filter((name) => !source.has(name));
    return { checked: false, note: `${source.label} is not the whole SR28 release (no SHA256SUMS; ${absent.join(", ")} absent): its files are not checked` };
  }
  // Presence first: naming a missing file costs nothing, hashing costs a decompression of every file.
  for (const name of SR28_RELEASE_FILES) {
    if (!source.has(name)) throw new Sr28FormatError(name, null, `missing from ${source.label}; ${source.remedy}`);
  }
  for (const name of SR28_RELEASE_FILES) {
    const expected = SR28_RELEASE_SHA256[name]!;
    const actual = new Bun.CryptoHasher("sha256").update(source.read(name)).digest("hex");
    if (actual !== expected) {
      throw new Sr28FormatError(
        name,
        null,
        `checksum differs from the SR28 release (expected ${expected.slice(0, 12)}…, got ${actual.slice(0, 12)}…); ${source.remedy}`,
      );
    }
  }
  return { checked: true, note: `${source.label}: all ${SR28_RELEASE_FILES.length} files match the SR28 release's SHA-256` };
}
