import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import * as catalogSchema from "../../src/catalog/sqlite-schema";
import { BINARY_PATH, SR28_DIR } from "../helpers/paths";
import { makeMiniSr28 } from "../helpers/mini-sr28";
import { runBinary } from "../helpers/binary";
import { sr28File } from "../helpers/sr28-files";
import { writeZip } from "../helpers/zip-writer";
import { SR28_RELEASE_FILES } from "../../src/catalog/import/sr28-release";

describe("foodapi import of the full SR28", () => {
  let workDir: string;
  let db: Database;
  let result: ReturnType<typeof runBinary>;

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), "foodapi-import-"));
    result = runBinary(["import", SR28_DIR, "--out", join(workDir, "catalog.sqlite")], { cwd: workDir });
    db = new Database(join(workDir, "catalog.sqlite"), { readonly: true });
  });
  afterAll(() => {
    db.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  const count = (table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

  test("exits 0 and reports progress on stderr", () => {
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("all 11 files match the SR28 release's SHA-256");
    expect(result.stderr).toContain("NUT_DATA.txt: 679045 rows");
    expect(result.stdout).toBe("");
  });

  test("counts are exact", () => {
    expect(count("foods")).toBe(8789);
    expect(count("food_groups")).toBe(25);
    expect(count("nutrients")).toBe(150);
    expect(count("nutrient_values")).toBe(679045);
    expect(count("portions")).toBe(15438);
    expect(count("footnotes")).toBe(552);
    expect(count("derivations")).toBe(55);
  });

  test("windows-1252 text is decoded", () => {
    expect(db.query("SELECT unit FROM nutrients WHERE number = '317'").get()).toEqual({ unit: "µg" });
    const portions = db.query<{ description: string }, []>("SELECT description FROM portions WHERE food_id = 22996").all();
    expect(portions.map((p) => p.description)).toContain("Entrée");
    const curly = db.query<{ scientific_name: string }, []>("SELECT scientific_name FROM foods WHERE scientific_name LIKE '%Zesy002%'").get();
    expect(curly?.scientific_name).toContain("\u2018Zesy002\u2019");
    expect(readdirSync(workDir)).toEqual(["catalog.sqlite"]);
  });

  test("the drizzle schema and the DDL the importer runs agree column for column", () => {
    for (const table of Object.values(catalogSchema)) {
      if (typeof table !== "object" || table === null || !("getSQL" in table)) continue;
      const config = getTableConfig(table as Parameters<typeof getTableConfig>[0]);
      const columns = db.query<{ name: string; notnull: number }, []>(`PRAGMA table_info(${config.name})`).all();
      expect(columns.map((c) => c.name).sort()).toEqual(config.columns.map((c) => c.name).sort());
      for (const column of config.columns) {
        const actual = columns.find((c) => c.name === column.name)!;
        expect([column.name, actual.notnull === 1 || column.primary]).toEqual([column.name, column.notNull]);
      }
    }
  });
});

describe("foodapi import refuses bad input and leaves no database", () => {
  const runImport = (dir: string) => {
    const out = mkdtempSync(join(tmpdir(), "foodapi-out-"));
    const result = runBinary(["import", dir, "--out", join(out, "catalog.sqlite")], { cwd: out });
    return { ...result, leftovers: readdirSync(out) };
  };

  test("a derived mini SR28 imports (the fixture is sound)", () => {
    const result = runImport(makeMiniSr28());
    expect(result.exitCode).toBe(0);
    expect(result.leftovers).toEqual(["catalog.sqlite"]);
  });

  test("a missing file", () => {
    const dir = makeMiniSr28();
    rmSync(join(dir, "WEIGHT.txt"));
    const result = runImport(dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("WEIGHT.txt: missing from");
    expect(result.leftovers).toEqual([]);
  });

  test("a row with too few fields is reported with file and line", () => {
    const dir = makeMiniSr28();
    appendFileSync(join(dir, "NUT_DATA.txt"), "~01001~^~999~^12\r\n");
    const lines = readFileSync(join(dir, "NUT_DATA.txt"), "latin1").split("\r\n").filter(Boolean).length;
    const result = runImport(dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`NUT_DATA.txt:${lines}: expected 18 fields`);
    expect(result.leftovers).toEqual([]);
  });

  test("a value that is not a number", () => {
    const dir = makeMiniSr28();
    const path = join(dir, "WEIGHT.txt");
    writeFileSync(path, readFileSync(path, "latin1").replace("^5.0^", "^five^"), "latin1");
    const result = runImport(dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/WEIGHT\.txt:1: Gm_Wgt 'five' is not a number/);
    expect(result.leftovers).toEqual([]);
  });

  test.each([
    ["a food", "WEIGHT.txt", "~77777~^1^1^~cup~^10^^", "NDB_No '77777' is not defined in FOOD_DES.txt"],
    ["a nutrient", "NUT_DATA.txt", "~01001~^~999~^1^0^^~1~^^^^^^^^^^^^", "Nutr_No '999' is not defined in NUTR_DEF.txt"],
    ["a derivation code", "NUT_DATA.txt", "~01001~^~203~^1^0^^~1~^~ZZZZ~^^^^^^^^^^^", "Deriv_Cd 'ZZZZ' is not defined in DERIV_CD.txt"],
    ["a food group", "FOOD_DES.txt", "~99999~^~9999~^~Test food~^~TEST~^^^^^^^^^^", "FdGrp_Cd '9999' is not defined in FD_GROUP.txt"],
  ])("a row that names %s that does not exist is refused with its line (%s)", (_, file, row, problem) => {
    const dir = makeMiniSr28();
    appendFileSync(join(dir, file), `${row}\r\n`);
    const lines = readFileSync(join(dir, file), "latin1").split("\r\n").filter(Boolean).length;
    const result = runImport(dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${file}:${lines}: ${problem}`);
    expect(result.leftovers).toEqual([]);
  });

  test("an output directory other users can write without the sticky bit is refused, naming it", () => {
    const out = mkdtempSync(join(tmpdir(), "foodapi-open-out-"));
    chmodSync(out, 0o777);
    const result = runBinary(["import", makeMiniSr28(), "--out", join(out, "catalog.sqlite")], { cwd: out });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`import failed: ${out} can be written by other users`);
    expect(readdirSync(out)).toEqual([]);
  });

  test("an output directory only its group can write too (a umask of 002) is fine: the catalog is public", () => {
    const out = mkdtempSync(join(tmpdir(), "foodapi-group-out-"));
    chmodSync(out, 0o775);
    const result = runBinary(["import", makeMiniSr28(), "--out", join(out, "catalog.sqlite")], { cwd: out });
    expect(result.stderr).not.toContain("can be written by");
    expect(result.exitCode).toBe(0);
    expect(readdirSync(out)).toEqual(["catalog.sqlite"]);
  });

  test("a duplicate row", () => {
    const dir = makeMiniSr28();
    const path = join(dir, "FD_GROUP.txt");
    appendFileSync(path, "~0100~^~Dairy again~\r\n");
    const result = runImport(dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("FD_GROUP.txt:26: cannot be stored");
    expect(result.leftovers).toEqual([]);
  });

  test("an interrupt (SIGINT) mid-import exits non-zero and removes the partial file", async () => {
    const out = mkdtempSync(join(tmpdir(), "foodapi-out-"));
    const child = Bun.spawn([BINARY_PATH, "import", SR28_DIR, "--out", join(out, "catalog.sqlite")], {
      cwd: out, stdout: "pipe", stderr: "pipe",
    });
    // Wait until it is inside NUT_DATA.txt, the long part, then interrupt.
    let stderr = "";
    for await (const chunk of child.stderr) {
      stderr += new TextDecoder().decode(chunk);
      if (stderr.includes("NUT_DATA.txt:")) break;
    }
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    expect(existsSync(join(out, "catalog.sqlite"))).toBe(false);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe("foodapi import from the USDA's sr28asc.zip (built here: the real one is not available offline)", () => {
  // Stored and deflated entries, lower-case names in a folder: whatever a zip tool made of the release.
  const releaseZip = (change?: (name: string, bytes: Buffer) => Buffer) =>
    writeZip(SR28_RELEASE_FILES.map((name, i) => {
      const bytes = sr28File(name);
      return { name: `sr28/${name.toLowerCase()}`, bytes: change ? change(name, bytes) : bytes, method: i % 4 === 0 ? 0 : 8 };
    }));

  test("the whole release imports, every file checked", () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-zip-"));
    writeFileSync(join(dir, "sr28asc.zip"), releaseZip());
    const result = runBinary(["import", "sr28asc.zip", "--out", "catalog.sqlite"], { cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("sr28asc.zip: all 11 files match the SR28 release's SHA-256");
    const db = new Database(join(dir, "catalog.sqlite"), { readonly: true });
    expect(db.query("SELECT count(*) AS n FROM nutrient_values").get()).toEqual({ n: 679045 });
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a file with one byte changed is refused by name, and nothing is written", () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-zip-"));
    const zip = releaseZip((name, bytes) => {
      if (name !== "WEIGHT.txt") return bytes;
      const altered = Buffer.from(bytes);
      altered[5000]! ^= 0x20;
      return altered;
    });
    writeFileSync(join(dir, "sr28asc.zip"), zip);
    const result = runBinary(["import", "sr28asc.zip", "--out", "catalog.sqlite"], { cwd: dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      "import failed: WEIGHT.txt: checksum differs from the SR28 release (expected 98484d7e26b3…",
    );
    expect(result.stderr).toContain("download sr28asc.zip again from the USDA, or import data/sr28 of the foodapi repository; no catalog was written");
    expect(readdirSync(dir)).toEqual(["sr28asc.zip"]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("foodapi import with no SR28 named", () => {
  test("outside a checkout (no ./data/sr28) the binary says what to pass", () => {
    const result = runBinary(["import", "--out", "catalog.sqlite"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      "import failed: no SR28 at ./data/sr28 (the default: the copy in a foodapi checkout, relative to the current " +
        "directory); run this from a checkout, or name SR28's files: foodapi import DIR_OR_sr28asc.zip (or set " +
        "FOODAPI_SR28_DIR); no catalog was written\n",
    );
    expect(readdirSync(result.cwd)).toEqual([]);
  });
});
