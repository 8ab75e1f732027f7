/**
 * SR28 import time against a same-run baseline: the baseline reads (and decompresses), decodes and splits
 * every file into fields (the parsing floor, no SQLite); the import does that plus checking the files'
 * SHA-256 and building the catalog and its index.
 * Prints the medians and their ratio. Target: import <= 4 s on a 2-core machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { importSr28 } from "../src/catalog/import/sqlite-importer";
import { openSr28Source } from "../src/catalog/import/source";
import { readSr28File, SR28_FILES } from "../src/catalog/import/sr28-format";

// data/sr28 (the compressed release in the repository) unless FOODAPI_SR28_DIR names another source.
const source = resolve(process.env.FOODAPI_SR28_DIR || resolve(import.meta.dir, "../data/sr28"));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return (performance.now() - started) / 1000;
}

const baseline: number[] = [];
const imports: number[] = [];
const dir = mkdtempSync(join(tmpdir(), "foodapi-bench-import-"));
try {
  for (let i = 0; i < runs; i++) {
    baseline.push(await time(async () => {
      const files = openSr28Source(source);
      for (const file of Object.values(SR28_FILES)) {
        const rows = readSr28File(file, files.read(file.name));
        while (rows.next()) for (let i = 0; i < file.fieldCount; i++) rows.field(i);
      }
    }));
    const out = join(dir, `catalog-${i}.sqlite`);
    imports.push(await time(() => importSr28({ source, outPath: out })));
    rmSync(out, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const result = {
  runs,
  baselineParseSeconds: Number(median(baseline).toFixed(3)),
  importSeconds: Number(median(imports).toFixed(3)),
  ratioToBaseline: Number((median(imports) / median(baseline)).toFixed(2)),
  targetSeconds: 4,
};
console.log(`SR28 import (median of ${runs}):`);
console.log(`  baseline: read + decode + split all files   ${result.baselineParseSeconds.toFixed(3)} s`);
console.log(`  full import into a catalog database        ${result.importSeconds.toFixed(3)} s  (${result.ratioToBaseline}x baseline; target <= 4 s: ${result.importSeconds <= 4 ? "met" : "NOT met"})`);
console.log(JSON.stringify(result));
