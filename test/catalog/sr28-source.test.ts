import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSr28Source, verifySr28Source } from "../../src/catalog/import/source";
import { formatSha256Sums, SR28_RELEASE_FILES } from "../../src/catalog/import/sr28-release";
import { readZip } from "../../src/catalog/import/zip";
import { makeMiniSr28 } from "../helpers/mini-sr28";
import { ROOT } from "../helpers/paths";
import { sr28File } from "../helpers/sr28-files";
import { writeZip } from "../helpers/zip-writer";

/** The SR28 sources (plain, zstd, zip) and the one checksum rule, as plain functions: no server, no binary. */

const DATA_SR28 = join(ROOT, "data/sr28");
const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const problem = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
};

describe("data/sr28, the release in the repository", () => {
  test("carries every file of the release compressed, and SHA256SUMS is the importer's list", () => {
    expect(readFileSync(join(DATA_SR28, "SHA256SUMS"), "utf8")).toBe(formatSha256Sums());
    const source = openSr28Source(DATA_SR28);
    for (const name of SR28_RELEASE_FILES) expect(source.has(name)).toBe(true);
    expect(verifySr28Source(source).checked).toBe(true);
  });

  test("a missing file is refused by name, with what to do, before any hashing", () => {
    const dir = temp("foodapi-sr28-copy-");
    cpSync(DATA_SR28, dir, { recursive: true });
    rmSync(join(dir, "LANGDESC.txt.zst"));
    const message = problem(() => verifySr28Source(openSr28Source(dir)));
    expect(message).toMatch(/^LANGDESC\.txt: missing from .*; restore .* \(git checkout -- data\/sr28\) or point FOODAPI_SR28_DIR at an unmodified copy of SR28$/);
    rmSync(dir, { recursive: true, force: true });
  });

  test("a .zst that is not zstd is refused by its stored name", () => {
    const dir = temp("foodapi-sr28-copy-");
    cpSync(DATA_SR28, dir, { recursive: true });
    writeFileSync(join(dir, "WEIGHT.txt.zst"), "not zstd");
    expect(problem(() => verifySr28Source(openSr28Source(dir)))).toStartWith("WEIGHT.txt.zst: cannot be decompressed");
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("the checksum rule", () => {
  const plainRelease = () => {
    const dir = temp("foodapi-sr28-plain-");
    for (const name of SR28_RELEASE_FILES) writeFileSync(join(dir, name), sr28File(name));
    return dir;
  };

  test("a plain directory with the whole release is checked; one changed byte is refused by name", () => {
    const dir = plainRelease();
    expect(verifySr28Source(openSr28Source(dir)).checked).toBe(true);
    const altered = Buffer.from(sr28File("FOOTNOTE.txt"));
    altered[100]! ^= 0x01;
    writeFileSync(join(dir, "FOOTNOTE.txt"), altered);
    expect(problem(() => verifySr28Source(openSr28Source(dir)))).toMatch(
      /^FOOTNOTE\.txt: checksum differs from the SR28 release \(expected fc7ad36a6bb0…, got [0-9a-f]{12}…\); replace it with an unmodified copy of SR28/,
    );
    rmSync(dir, { recursive: true, force: true });
  });

  test("a subset without SHA256SUMS (the tests' fixtures) is not the release: unchecked, and said so", () => {
    const dir = makeMiniSr28();
    const result = verifySr28Source(openSr28Source(dir));
    expect(result.checked).toBe(false);
    expect(result.note).toContain("is not the whole SR28 release (no SHA256SUMS; DATA_SRC.txt, LANGDESC.txt, LANGUAL.txt, SRC_CD.txt absent)");
    expect(result.note).toContain("its files are not checked");
    rmSync(dir, { recursive: true, force: true });
  });

  test("the same file twice (plain and compressed) is refused rather than guessed", () => {
    const dir = makeMiniSr28();
    writeFileSync(join(dir, "FD_GROUP.txt.zst"), Bun.zstdCompressSync(sr28File("FD_GROUP.txt")));
    expect(problem(() => openSr28Source(dir))).toMatch(/^FD_GROUP\.txt: found twice in .*; keep one$/);
    rmSync(dir, { recursive: true, force: true });
  });

  test("a path that does not exist says what was expected", () => {
    expect(problem(() => openSr28Source("/nonexistent/sr28"))).toBe(
      "/nonexistent/sr28: not found (expected a directory of SR28's .txt or .txt.zst files, or the USDA's sr28asc.zip)",
    );
  });
});

describe("the zip reader (sr28asc.zip itself is not available offline: zips are built here)", () => {
  const files = [
    { name: "FD_GROUP.txt", bytes: sr28File("FD_GROUP.txt"), method: 0 },
    { name: "sr28/food_des.TXT", bytes: sr28File("FOOD_DES.txt"), method: 8 },
    { name: "sr28/", bytes: new Uint8Array(), method: 0 },
  ];

  test("stored and deflated entries read back byte for byte", () => {
    const entries = readZip(writeZip(files));
    expect(entries.map((e) => e.name)).toEqual(["FD_GROUP.txt", "sr28/food_des.TXT", "sr28/"]);
    expect(Buffer.from(entries[0]!.read()).equals(sr28File("FD_GROUP.txt"))).toBe(true);
    expect(Buffer.from(entries[1]!.read()).equals(sr28File("FOOD_DES.txt"))).toBe(true);
  });

  test("as a source, names match whatever their case and folder", () => {
    const dir = temp("foodapi-zip-");
    writeFileSync(join(dir, "sr28asc.zip"), writeZip(files));
    const source = openSr28Source(join(dir, "sr28asc.zip"));
    expect(Buffer.from(source.read("FOOD_DES.txt")).equals(sr28File("FOOD_DES.txt"))).toBe(true);
    expect(source.has("fd_group.txt")).toBe(true);
    expect(source.has("WEIGHT.txt")).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  test("a damaged entry, another method, and a file that is not a zip are refused", () => {
    const zip = writeZip([{ name: "FD_GROUP.txt", bytes: sr28File("FD_GROUP.txt"), method: 0 }]);
    zip[50]! ^= 0x01; // inside the stored data, which follows the 30-byte header and the 12-byte name
    expect(() => readZip(zip)[0]!.read()).toThrow("FD_GROUP.txt: damaged (size or CRC-32 differs from the zip's directory)");
    const bzip = writeZip([{ name: "X.txt", bytes: new Uint8Array([1]), method: 12 }]);
    expect(() => readZip(bzip)[0]!.read()).toThrow("X.txt: compression method 12 is not supported (only stored and deflate)");
    expect(() => readZip(Buffer.from("plain text, not a zip at all"))).toThrow("not a zip file");
  });

  test.skipIf(!Bun.which("zip"))("reads a zip made by Info-ZIP's zip (Debian's `zip`, when installed)", () => {
    const dir = makeMiniSr28();
    const zipPath = join(temp("foodapi-zip-"), "sr28asc.zip");
    const made = Bun.spawnSync(["zip", "-q", "-r", zipPath, "."], { cwd: dir });
    expect(made.exitCode).toBe(0);
    const source = openSr28Source(zipPath);
    for (const name of ["FOOD_DES.txt", "NUT_DATA.txt", "WEIGHT.txt"]) {
      expect(Buffer.from(source.read(name)).equals(readFileSync(join(dir, name)))).toBe(true);
    }
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(zipPath, ".."), { recursive: true, force: true });
  });
});
