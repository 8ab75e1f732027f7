import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sr28File } from "./sr28-files";

const FOOD_FILES = ["FOOD_DES.txt", "NUT_DATA.txt", "WEIGHT.txt", "FOOTNOTE.txt"];
const WHOLE_FILES = ["FD_GROUP.txt", "NUTR_DEF.txt", "DERIV_CD.txt"];

/**
 * A small SR28 directory of plain `.txt` files derived at test time from the real one: the reference
 * tables whole, and the rows of a few foods, byte for byte (still windows-1252 and CRLF). Not the whole
 * release, so the importer takes it unchecked (src/catalog/import/source.ts).
 */
export function makeMiniSr28(foodNumbers = ["01001", "02009", "22996"]): string {
  const dir = mkdtempSync(join(tmpdir(), "foodapi-sr28-"));
  const prefixes = foodNumbers.map((n) => Buffer.from(`~${n}~`, "latin1"));
  for (const name of WHOLE_FILES) writeFileSync(join(dir, name), sr28File(name));
  for (const name of FOOD_FILES) {
    const lines = splitCrlf(sr28File(name));
    const kept = lines.filter((line) => prefixes.some((p) => line.subarray(0, p.length).equals(p)));
    writeFileSync(join(dir, name), Buffer.concat(kept.flatMap((line) => [line, Buffer.from("\r\n")])));
  }
  return dir;
}

function splitCrlf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let at = bytes.indexOf("\r\n", start); at !== -1; at = bytes.indexOf("\r\n", start)) {
    lines.push(bytes.subarray(start, at));
    start = at + 2;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}
