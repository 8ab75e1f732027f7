// Packs the imported catalog for embedding: build.sh runs it as `bun scripts/compress-catalog.ts IN CATALOG_OUT ANSWERS_OUT`.
// CATALOG_OUT: the database without its detail answers, packed in zstd frames at level 19 (31 -> ~6.4 MB, ~10 s
// once per catalog change; the level costs build time only, and the smaller download is paid for once).
// ANSWERS_OUT: every food's detail answer, ready to send, as the answers file packed the same way
// (src/catalog/answer-file.ts, frame-pack.ts): the first start only inflates and writes both.
import { Database } from "bun:sqlite";
import { renameSync, rmSync } from "node:fs";
import { writeAnswerFile } from "../src/catalog/answer-file";
import { packFrames } from "../src/catalog/frame-pack";
import { withoutFoodDetails } from "../src/catalog/import/sqlite-details";

const CATALOG_LEVEL = 19;
/** Past 15 the JSON shrinks by a few per cent more for minutes of build time; the stored forms not at all. */
const ANSWERS_LEVEL = 15;

const [input, catalogOut, answersOut] = process.argv.slice(2);
if (!input || !catalogOut || !answersOut) throw new Error("usage: compress-catalog.ts IN CATALOG_OUT ANSWERS_OUT");
const slim = `${catalogOut}.slim-${process.pid}`;
const answers = `${answersOut}.file-${process.pid}`;
try {
  withoutFoodDetails(input, slim);
  await Bun.write(`${catalogOut}.partial`, packFrames(await Bun.file(slim).bytes(), CATALOG_LEVEL));
  renameSync(`${catalogOut}.partial`, catalogOut);

  await Bun.write(answers, "");
  const catalog = new Database(input, { readonly: true });
  try {
    writeAnswerFile(catalog, answers);
  } finally {
    catalog.close();
  }
  await Bun.write(`${answersOut}.partial`, packFrames(await Bun.file(answers).bytes(), ANSWERS_LEVEL));
  renameSync(`${answersOut}.partial`, answersOut);
} finally {
  rmSync(slim, { force: true });
  rmSync(answers, { force: true });
}
