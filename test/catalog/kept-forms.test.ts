import { expect, test } from "bun:test";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { KeptForms } from "../../src/catalog/kept-forms";
import { createFoodDetails } from "../../src/catalog/service";
import type { CatalogStore } from "../../src/catalog/store";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import type { EncodedAnswer } from "../../src/platform/http/content-encoding";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

const form = (seed: number, bytes: number) => Uint8Array.from({ length: bytes }, (_, i) => (seed * 31 + i) & 0xff);

test("a kept form reads back byte for byte; a food never kept is undefined; a second keep changes nothing", () => {
  const kept = new KeptForms();
  expect(kept.get(1001)).toBeUndefined();
  kept.keep(1001, form(1, 2300));
  kept.keep(1001, form(2, 10));
  expect(kept.get(1001)).toEqual(form(1, 2300));
  expect(kept.get(1002)).toBeUndefined();
});

test("thousands of forms across chunks, one larger than a chunk: each reads back intact, and memory is the forms' bytes plus at most a chunk", () => {
  const kept = new KeptForms();
  const sizes = new Map<number, number>();
  let total = 0;
  for (let id = 1000; id < 9789; id++) {
    const bytes = 500 + ((id * 7919) % 4000);
    sizes.set(id, bytes);
    total += bytes;
    kept.keep(id, form(id, bytes));
  }
  kept.keep(99999, form(5, 3 * 1024 * 1024));
  total += 3 * 1024 * 1024;
  for (const [id, bytes] of sizes) expect(kept.get(id)).toEqual(form(id, bytes));
  expect(kept.get(99999)).toEqual(form(5, 3 * 1024 * 1024));
  expect(kept.bytes).toBeGreaterThanOrEqual(total);
  // Each chunk wastes at most one form's worth at its end, and the last chunk its unused rest.
  expect(kept.bytes).toBeLessThan(total + (kept.bytes / (1024 * 1024)) * 4500 + 1024 * 1024);
});

test("a view sent is not disturbed by forms kept later", () => {
  const kept = new KeptForms();
  kept.keep(1, form(1, 1000));
  const view = kept.get(1)!;
  for (let id = 2; id < 3000; id++) kept.keep(id, form(id, 900));
  expect(view).toEqual(form(1, 1000));
});

test("a detail's br form is made from the food's JSON on the first br request for the food and kept: the next is a hit, nothing made again", async () => {
  const catalog = await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache"));
  try {
    // The real catalog, counting its reads of stored forms: a br form is made from the food's JSON.
    const reads: string[] = [];
    const store: CatalogStore = Object.assign(Object.create(catalog) as CatalogStore, {
      storedDetail: (foodId: number, coding: "identity" | "zstd" | "gzip") => {
        reads.push(`${foodId} ${coding}`);
        return catalog.storedDetail(foodId, coding);
      },
    });
    const details = createFoodDetails(store);
    const json = new TextDecoder().decode(details.jsonBytes("11090")!);
    reads.length = 0;
    const answer = () => details.answer("11090") as EncodedAnswer;

    const first = answer().open("br");
    const firstBody = first.body() as Uint8Array;
    expect(reads).toEqual(["11090 identity"]);
    expect(new TextDecoder().decode(brotliDecompressSync(firstBody))).toBe(json);

    // Again: the tag (all a 304 asks) and the body are the kept form's, a view of the one copy kept, with no
    // compression (one would make a buffer of its own).
    const again = Array.from({ length: 3 }, () => answer().open("br"));
    const bodies = again.map((opened) => opened.body() as Uint8Array);
    expect(again.map((opened) => opened.etag)).toEqual([first.etag, first.etag, first.etag]);
    for (const body of bodies) {
      expect(body).toEqual(firstBody);
      expect([body.buffer === bodies[0]!.buffer, body.byteOffset]).toEqual([true, bodies[0]!.byteOffset]);
    }
    expect(bodies[0]!.buffer).not.toBe(firstBody.buffer);
    // A kept form needs no JSON: nothing more was read for them.
    expect(reads).toEqual(["11090 identity"]);
    // The tag alone (a 304) reads nothing, in any coding; a body reads its form when it is sent.
    reads.length = 0;
    const plain = answer().open("identity");
    expect(plain.etag).toBe(first.etag);
    expect(reads).toEqual([]);
    expect(new TextDecoder().decode(plain.body() as Uint8Array)).toBe(json);
    expect(reads).toEqual(["11090 identity"]);
    // The tag of a food whose br form is not made yet is known without making it, or reading its JSON.
    reads.length = 0;
    const other = (details.answer("01001") as EncodedAnswer).open("br");
    expect(other.etag).not.toBe(first.etag);
    expect(reads).toEqual([]);
    expect(new TextDecoder().decode(brotliDecompressSync(other.body() as Uint8Array))).toBe(new TextDecoder().decode(details.jsonBytes("01001")!));
    expect(reads).toEqual(["1001 identity", "1001 identity"]);
  } finally {
    catalog.close();
  }
});
