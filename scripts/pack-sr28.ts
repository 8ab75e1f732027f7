/**
 * (Re)creates data/sr28 from SR28's ASCII files: each file of the release zstd-compressed
 * (`NUT_DATA.txt.zst`), plus SHA256SUMS of the original files. The input is any source the importer reads
 * (a directory of the .txt files, or the USDA's sr28asc.zip) and must be the unaltered release: it is
 * verified against the checksums compiled into the importer first, and every compressed file is
 * decompressed again and compared before it is written.
 *
 *   node_modules/.bin/bun scripts/pack-sr28.ts SOURCE [OUT_DIR=data/sr28]
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSr28Source, verifySr28Source } from "../src/catalog/import/source";
import { formatSha256Sums, SR28_RELEASE_FILES } from "../src/catalog/import/sr28-release";
import { Sr28FormatError } from "../src/catalog/import/sr28-format";

// 19 is zstd's highest level without --ultra: about 3.5 MB in all; 22 saves under 1 % for twice the time.
const LEVEL = 19;

const [input, outDir = "data/sr28"] = process.argv.slice(2);
if (!input) {
  console.error("usage: bun scripts/pack-sr28.ts SOURCE [OUT_DIR]  (SOURCE: a directory of SR28's .txt files or sr28asc.zip)");
  process.exit(2);
}
try {
  const source = openSr28Source(input);
  // A source without every release file would pass unchecked; packing requires the whole release.
  const missing = SR28_RELEASE_FILES.filter((name) => !source.has(name));
  if (missing.length > 0) throw new Sr28FormatError(missing[0]!, null, `missing from ${source.label}; pack needs the whole SR28 release`);
  console.error(verifySr28Source(source).note);
  mkdirSync(outDir, { recursive: true });
  for (const stale of readdirSync(outDir)) if (stale.endsWith(".zst")) rmSync(join(outDir, stale));
  let total = 0;
  for (const name of SR28_RELEASE_FILES) {
    const original = source.read(name);
    const packed = Bun.zstdCompressSync(original, { level: LEVEL });
    if (!Buffer.from(Bun.zstdDecompressSync(packed)).equals(original)) throw new Error(`${name}: zstd round trip differs`);
    writeFileSync(join(outDir, `${name}.zst`), packed);
    total += packed.length;
    console.error(`${name}: ${original.length} -> ${packed.length} bytes`);
  }
  writeFileSync(join(outDir, "SHA256SUMS"), formatSha256Sums());
  console.error(`${outDir}: ${SR28_RELEASE_FILES.length} files, ${(total / 1e6).toFixed(2)} MB, and SHA256SUMS`);
} catch (error) {
  if (!(error instanceof Sr28FormatError)) throw error;
  console.error(`pack failed: ${error.message}`);
  process.exit(1);
}
