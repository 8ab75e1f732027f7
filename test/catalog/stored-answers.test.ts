import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import { createFoodDetails } from "../../src/catalog/service";
import type { CatalogStore } from "../../src/catalog/store";
import type { EncodedAnswer } from "../../src/platform/http/content-encoding";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

let store: CatalogStore;
beforeAll(async () => {
  store = await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache"));
});
afterAll(() => store.close());

// A detail is sent as the answers file's bytes (src/catalog/answer-file.ts): every coded form of every food
// is a view of the one mapping, and the JSON is read into one buffer the worker reuses (a Response copies its
// body when made), so a request decompresses and allocates no body of its own, and the JSON's pages never
// enter the worker's resident set.
test("every stored coded form is a view of one mapping, the JSON is read into one reused buffer, each with the importer's bytes and tag", () => {
  const details = createFoodDetails(store);
  const imported = new Database(CATALOG_PATH, { readonly: true });
  try {
    const bodies: Record<"identity" | "zstd" | "gzip", Uint8Array[]> = { identity: [], zstd: [], gzip: [] };
    for (const foodNumber of ["01001", "11090", "01001"]) {
      const row = imported.query<{ etag: string; zstd: Uint8Array; gzip: Uint8Array<ArrayBuffer> }, [number]>("SELECT etag, zstd, gzip FROM food_details WHERE food_id = ?").get(Number(foodNumber))!;
      const answer = details.answer(foodNumber) as EncodedAnswer;
      const want = { identity: Bun.gunzipSync(row.gzip), zstd: row.zstd, gzip: row.gzip };
      for (const coding of ["identity", "zstd", "gzip"] as const) {
        const opened = answer.open(coding);
        const body = opened.body() as Uint8Array;
        expect([foodNumber, coding, opened.etag, Buffer.compare(body, want[coding])]).toEqual([foodNumber, coding, row.etag, 0]);
        bodies[coding].push(body);
      }
      expect(new TextDecoder().decode(details.jsonBytes(foodNumber)!)).toBe(new TextDecoder().decode(want.identity));
    }
    const coded = [...bodies.zstd, ...bodies.gzip];
    expect(new Set(coded.map((body) => body.buffer)).size).toBe(1);
    // The same food asked twice: the same bytes of the mapping, not a copy.
    expect(bodies.gzip[2]!.byteOffset).toBe(bodies.gzip[0]!.byteOffset);
    expect(new Set(bodies.identity.map((body) => body.buffer)).size).toBe(1);
    expect(bodies.identity[0]!.buffer).not.toBe(coded[0]!.buffer);
  } finally {
    imported.close();
  }
});
