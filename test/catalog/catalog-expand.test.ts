import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expandCatalog } from "../../src/catalog/catalog-expand";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

// The binary embeds the catalog without its detail answers and rebuilds them on first start: every answer
// must be the one the importer stored, and everything else the imported catalog's.
test("a catalog expanded at first start answers every food's detail exactly as the imported one", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-expand-"));
  const expandedPath = await expandCatalog(join(ROOT, "dist/catalog.sqlite.zst"), "0123456789abcdef", cacheDir);
  expect(readdirSync(cacheDir)).toEqual(["catalog-0123456789abcdef.sqlite"]);
  const imported = new Database(CATALOG_PATH, { readonly: true });
  const expanded = new Database(expandedPath, { readonly: true });
  try {
    const details = (db: Database) =>
      db.query<{ id: number; detail: Uint8Array }, []>("SELECT food_id AS id, zstd AS detail FROM food_details ORDER BY food_id").all();
    const want = details(imported);
    const got = details(expanded);
    expect(want.length).toBe(8789);
    expect(got.map((row) => row.id)).toEqual(want.map((row) => row.id));
    const decoder = new TextDecoder();
    let differing = 0;
    want.forEach((row, i) => {
      if (decoder.decode(Bun.zstdDecompressSync(got[i]!.detail)) !== decoder.decode(Bun.zstdDecompressSync(row.detail))) differing++;
    });
    expect(differing).toBe(0);

    // The rest of the catalog came through the packing unchanged.
    for (const table of ["foods", "food_groups", "nutrients", "derivations", "nutrient_values", "portions", "footnotes", "catalog_info"]) {
      // Footnotes have no key: their order is the import's (rowid).
      const rows = (db: Database) => db.query(`SELECT * FROM ${table} ORDER BY ${table === "footnotes" ? "rowid" : "1, 2"}`).all();
      expect(rows(expanded)).toEqual(rows(imported));
    }
    const search = (db: Database) => db.query("SELECT rowid FROM food_search WHERE food_search MATCH 'cheddar' ORDER BY rowid").all();
    expect(search(expanded)).toEqual(search(imported));
    expect(expanded.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  } finally {
    imported.close();
    expanded.close();
  }
}, 60_000);

test("expanding removes partial files a killed expansion left behind, not one that may be in progress", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-expand-"));
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
  await expandCatalog(join(ROOT, "dist/catalog.sqlite.zst"), "00000000000000aa", cacheDir);
  expect(readdirSync(cacheDir).sort()).toEqual([".catalog-fedcba9876543210.sqlite.partial-Zz99Yy", "catalog-00000000000000aa.sqlite"]);
  expect(statSync(join(cacheDir, "catalog-00000000000000aa.sqlite")).mode & 0o777).toBe(0o644);
}, 60_000);

test("a link another user planted at the old partial name (catalog-<id>.sqlite.partial-<pid>) neither stops the expansion nor is written through", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-expand-shared-"));
  const theirs = join(mkdtempSync(join(tmpdir(), "foodapi-other-user-")), "collected");
  writeFileSync(theirs, "");
  const planted = `catalog-00000000000000bb.sqlite.partial-${process.pid}`;
  symlinkSync(theirs, join(cacheDir, planted));
  const expanded = await expandCatalog(join(ROOT, "dist/catalog.sqlite.zst"), "00000000000000bb", cacheDir);
  expect(lstatSync(expanded).isFile()).toBe(true);
  expect(readFileSync(theirs).length).toBe(0);
  expect(readdirSync(cacheDir).sort()).toEqual(["catalog-00000000000000bb.sqlite", planted]);
}, 60_000);

test("refuses a cache directory others can write without the sticky bit, naming it, and leaves nothing there", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-expand-open-"));
  chmodSync(cacheDir, 0o777);
  await expect(expandCatalog(join(ROOT, "dist/catalog.sqlite.zst"), "00000000000000cc", cacheDir)).rejects.toThrow(`${cacheDir} can be written by other users`);
  expect(readdirSync(cacheDir)).toEqual([]);
});
