// Packs the imported catalog for embedding: build.sh runs it as `bun scripts/compress-catalog.ts IN OUT`.
// Without its detail answers, which the first start rebuilds (src/catalog/import/sqlite-details.ts): 47 MB -> 22.5 MB,
// and at level 19 -> 4.5 MB, ~12 s once per catalog change; every level expands in under 0.1 s, so the
// level costs build time only, and the smaller download is paid for once.
import { renameSync, rmSync } from "node:fs";
import { withoutFoodDetails } from "../src/catalog/import/sqlite-details";

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: compress-catalog.ts IN OUT");
const slim = `${output}.slim-${process.pid}`;
const partial = `${output}.partial`;
try {
  withoutFoodDetails(input, slim);
  await Bun.write(partial, Bun.zstdCompressSync(await Bun.file(slim).bytes(), { level: 19 }));
  renameSync(partial, output);
} finally {
  rmSync(slim, { force: true });
}
