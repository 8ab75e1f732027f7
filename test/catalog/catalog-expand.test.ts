import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { chmodSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { AnswerFile } from "../../src/catalog/answer-file";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import { answersForCatalogFile, expandCatalog } from "../../src/catalog/catalog-expand";
import { CATALOG_PATH, ROOT } from "../helpers/paths";
import { differingAnswers } from "../helpers/stored-answers";

// Each expansion writes ~210 MB: removed when the file is done.
const made: string[] = [];
const tempDirectory = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const EMBEDDED = { catalog: join(ROOT, "dist/catalog.sqlite.zst"), answers: join(ROOT, "dist/catalog.answers.zst") };

/** A mapper of a platform without Bun.mmap: the answers file reads each answer instead. */
const noMmap = (): Uint8Array => {
  throw new Error("no mmap on this platform");
};

// The binary embeds the catalog without its detail answers, and the answers file packed: the first start
// inflates both. Every answer must be the one the importer stored, and everything else the imported catalog's.
test("a catalog expanded at first start answers every food's detail exactly as the imported one", async () => {
  const cacheDir = tempDirectory("foodapi-expand-");
  const expanded = await expandCatalog(EMBEDDED, "0123456789abcdef", cacheDir);
  expect(readdirSync(cacheDir).sort()).toEqual(["catalog-0123456789abcdef.sqlite", "catalog-0123456789abcdef.v1.answers"]);
  expect([statSync(expanded.catalog).mode & 0o777, statSync(expanded.answers).mode & 0o777]).toEqual([0o644, 0o644]);
  const imported = new Database(CATALOG_PATH, { readonly: true });
  const database = new Database(expanded.catalog, { readonly: true });
  try {
    const answers = new AnswerFile(expanded.answers);
    expect(differingAnswers(answers, imported)).toEqual({ foods: 8789, differing: [] });
    expect(answers.answer(99999, "identity")).toBeUndefined();

    // The rest of the catalog came through the packing unchanged.
    for (const table of ["foods", "food_groups", "nutrients", "derivations", "nutrient_values", "portions", "footnotes", "catalog_info"]) {
      // Footnotes have no key: their order is the import's (rowid).
      const rows = (db: Database) => db.query(`SELECT * FROM ${table} ORDER BY ${table === "footnotes" ? "rowid" : "1, 2"}`).all();
      expect(rows(database)).toEqual(rows(imported));
    }
    const search = (db: Database) => db.query("SELECT rowid FROM food_search WHERE food_search MATCH 'cheddar' ORDER BY rowid").all();
    expect(search(database)).toEqual(search(imported));
    expect(database.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  } finally {
    imported.close();
    database.close();
  }
}, 60_000);

test("where the answers file cannot be mapped, each answer is read from it instead: the same bytes and tags", async () => {
  const cacheDir = tempDirectory("foodapi-answers-unmapped-");
  const expanded = await expandCatalog(EMBEDDED, "00000000000000ee", cacheDir);
  const imported = new Database(CATALOG_PATH, { readonly: true });
  try {
    const unmapped = new AnswerFile(expanded.answers, noMmap);
    expect(differingAnswers(unmapped, imported)).toEqual({ foods: 8789, differing: [] });
    expect(unmapped.answer(99999, "gzip")).toBeUndefined();
  } finally {
    imported.close();
  }
}, 60_000);

// A start of another version sharing the cache directory removes the expanded files of other catalogs
// (catalog-expand.ts) while this process may not have mapped its answers yet: they are held open from the start.
test("an answers file removed after the start still answers, mapped or read", async () => {
  const cacheDir = tempDirectory("foodapi-answers-removed-");
  const expanded = await expandCatalog(EMBEDDED, "00000000000000ef", cacheDir);
  const imported = new Database(CATALOG_PATH, { readonly: true });
  try {
    const mapped = new AnswerFile(expanded.answers);
    const unmapped = new AnswerFile(expanded.answers, noMmap);
    rmSync(expanded.answers);
    expect(differingAnswers(mapped, imported)).toEqual({ foods: 8789, differing: [] });
    expect(differingAnswers(unmapped, imported)).toEqual({ foods: 8789, differing: [] });
    mapped.close();
    unmapped.close();
  } finally {
    imported.close();
  }
}, 60_000);

test("a catalog file's answers are made once into the cache directory, from its food_details, and made again for a new import", async () => {
  const cacheDir = tempDirectory("foodapi-answers-");
  const catalogDir = tempDirectory("foodapi-answers-catalog-");
  const catalogPath = join(catalogDir, "catalog.sqlite");
  copyFileSync(CATALOG_PATH, catalogPath);
  const imported = new Database(catalogPath, { readonly: true });
  try {
    const first = await answersForCatalogFile(catalogPath, imported, cacheDir);
    expect(differingAnswers(new AnswerFile(first), imported)).toEqual({ foods: 8789, differing: [] });
    const made = statSync(first);
    expect(await answersForCatalogFile(catalogPath, imported, cacheDir)).toBe(first);
    expect(statSync(first).mtimeMs).toBe(made.mtimeMs);
    // A new import in its place (another file under the same name): its own answers; the old ones go.
    copyFileSync(CATALOG_PATH, `${catalogPath}.new`);
    renameSync(`${catalogPath}.new`, catalogPath);
    const second = await answersForCatalogFile(catalogPath, imported, cacheDir);
    expect(second).not.toBe(first);
    expect(readdirSync(cacheDir)).toEqual([basename(second)]);
  } finally {
    imported.close();
  }
}, 60_000);

test("a server refuses an answers file that is not whole, saying which file and what to do", async () => {
  const cacheDir = tempDirectory("foodapi-answers-cut-");
  const store = await openCatalogStore(CATALOG_PATH, cacheDir);
  store.close();
  const [answers] = readdirSync(cacheDir).filter((name) => name.endsWith(".answers"));
  const path = join(cacheDir, answers!);
  // Cut short, as a full disk or a copy interrupted could leave it: the header says otherwise.
  truncateSync(path, statSync(path).size - 1);
  await expect(openCatalogStore(CATALOG_PATH, cacheDir)).rejects.toThrow(`${path} is not an answers file of this version (its length is not the one its header says); remove it to have it made again`);
  writeFileSync(path, "not an answers file");
  await expect(openCatalogStore(CATALOG_PATH, cacheDir)).rejects.toThrow(`${path} is not an answers file of this version (no header)`);
  rmSync(path);
  (await openCatalogStore(CATALOG_PATH, cacheDir)).close();
}, 60_000);

test("expanding removes partial files a killed expansion left behind, not one that may be in progress", async () => {
  const cacheDir = tempDirectory("foodapi-expand-");
  // An earlier release's partial file, and this one's partial directories (src/platform/storage/file-beside.ts).
  const leftByEarlier = join(cacheDir, "catalog-0123456789abcdef.sqlite.partial-4242");
  const left = join(cacheDir, ".catalog-0123456789abcdee.sqlite.partial-Ab12Cd");
  const inProgress = join(cacheDir, ".catalog-fedcba9876543210.sqlite.partial-Zz99Yy");
  writeFileSync(leftByEarlier, "killed mid-expansion");
  // Each holds the file named as its target, as src/platform/storage/file-beside.ts makes it.
  const inside = (dir: string) => join(dir, dir.replace(/^.*\/\.(.+)\.partial-\w+$/, "$1"));
  for (const dir of [left, inProgress]) {
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(inside(dir), "being written");
  }
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const path of [leftByEarlier, inside(left), left]) utimesSync(path, hourAgo, hourAgo);
  await expandCatalog(EMBEDDED, "00000000000000aa", cacheDir);
  expect(readdirSync(cacheDir).sort()).toEqual([".catalog-fedcba9876543210.sqlite.partial-Zz99Yy", "catalog-00000000000000aa.sqlite", "catalog-00000000000000aa.v1.answers"]);
  expect(statSync(join(cacheDir, "catalog-00000000000000aa.sqlite")).mode & 0o777).toBe(0o644);
}, 60_000);

test("a link another user planted at the old partial name (catalog-<id>.sqlite.partial-<pid>) neither stops the expansion nor is written through", async () => {
  const cacheDir = tempDirectory("foodapi-expand-shared-");
  const theirs = join(tempDirectory("foodapi-other-user-"), "collected");
  writeFileSync(theirs, "");
  const planted = `catalog-00000000000000bb.sqlite.partial-${process.pid}`;
  symlinkSync(theirs, join(cacheDir, planted));
  const expanded = await expandCatalog(EMBEDDED, "00000000000000bb", cacheDir);
  expect(lstatSync(expanded.catalog).isFile()).toBe(true);
  expect(readFileSync(theirs).length).toBe(0);
  expect(readdirSync(cacheDir).sort()).toEqual(["catalog-00000000000000bb.sqlite", "catalog-00000000000000bb.v1.answers", planted].sort());
}, 60_000);

test("refuses a cache directory others can write without the sticky bit, naming it, and leaves nothing there", async () => {
  const cacheDir = tempDirectory("foodapi-expand-open-");
  chmodSync(cacheDir, 0o777);
  await expect(expandCatalog(EMBEDDED, "00000000000000cc", cacheDir)).rejects.toThrow(`${cacheDir} can be written by other users`);
  expect(readdirSync(cacheDir)).toEqual([]);
});
