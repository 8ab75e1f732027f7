import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import type { Coding } from "../../platform/http/accept-encoding";
import { etagBase } from "../../platform/http/etag";
import { type DetailDictionaries, type FoodRow, toFoodDetail, type ValueRow } from "../detail";
import type { FoodDetail } from "../model";
import type { nutrients } from "../sqlite-schema";

/** Foods per batch: built here, compressed in parallel, then stored; an interrupt is seen between batches. */
const FOODS_PER_BATCH = 500;

/**
 * How the stored forms are compressed, in every import (the import's time is held to a target, bench/run):
 * libdeflate's gzip level 1 is as small as zstd's level 3 here (~2.3 KB a detail on average) in a third of
 * zlib's time. Brotli is not stored: it only beats these from quality 4, at several times the import's
 * compression time, and the binary would carry ~20 MB more for it; the few clients that take br alone get a
 * form made once per food by the server (catalog/service.ts).
 */
const STORED_LEVELS = { zstd: 3, gzip: 1 } as const;


/** A food's stored answer: its JSON's entity tag and the JSON in each stored coding. */
async function storedForms(json: string): Promise<[etag: string, zstd: Uint8Array, gzip: Uint8Array]> {
  // zstd on Bun's thread pool, gzip (libdeflate has no asynchronous form) here meanwhile.
  const zstd = Bun.zstdCompress(json, { level: STORED_LEVELS.zstd });
  const gzip = Bun.gzipSync(json, { level: STORED_LEVELS.gzip, library: "libdeflate" });
  return [etagBase(json), await zstd, gzip];
}

/**
 * Writes every food's detail answer into `food_details`, compressed in each coding the API sends. The
 * catalog never changes once imported, so the answer is assembled and compressed once here rather than on
 * every request: serving a detail is then one row, sent as stored to a client that accepts its coding.
 * Each table is read once, in food order, and walked alongside the foods.
 */
export async function storeFoodDetails(db: Database, yieldToSignals: () => Promise<void>): Promise<number> {
  const dictionaries: DetailDictionaries = {
    nutrients: new Map(
      db
        .query<typeof nutrients.$inferSelect, []>(
          "SELECT number, name, unit, tag, decimals, sr_order AS srOrder FROM nutrients ORDER BY sr_order, number",
        )
        .all()
        .map((def, order) => [def.number, { def, order }]),
    ),
    derivations: new Map(
      db.query<{ code: string; description: string }, []>("SELECT code, description FROM derivations").all().map((d) => [d.code, d.description]),
    ),
  };
  const foods = db
    .query<FoodRow, []>(
      `SELECT f.id, f.food_number AS foodNumber, f.group_code AS groupCode, f.name, f.search_name AS searchName,
              f.short_name AS shortName, f.common_name AS commonName, f.manufacturer, f.scientific_name AS scientificName,
              f.refuse_percent AS refusePercent, f.refuse_description AS refuseDescription,
              f.nitrogen_factor AS nitrogenFactor, f.protein_factor AS proteinFactor, f.fat_factor AS fatFactor,
              f.carbohydrate_factor AS carbohydrateFactor, g.name AS groupName
         FROM foods f JOIN food_groups g ON g.code = f.group_code ORDER BY f.id`,
    )
    .all();
  const values = walkByFood(
    db.query<ValueRow & { foodId: number }, []>(
      `SELECT food_id AS foodId, nutrient_number AS nutrientNumber, value, data_points AS dataPoints, std_error AS stdError,
              derivation_code AS derivationCode
         FROM nutrient_values ORDER BY food_id`,
    ).iterate(),
  );
  const portions = walkByFood(
    db.query<FoodDetail["portions"][number] & { foodId: number }, []>(
      "SELECT food_id AS foodId, seq, amount, description, grams FROM portions ORDER BY food_id, seq",
    ).iterate(),
  );
  const footnotes = walkByFood(
    db.query<FoodDetail["footnotes"][number] & { foodId: number }, []>(
      "SELECT food_id AS foodId, number, type, nutrient_number AS nutrientNumber, text FROM footnotes ORDER BY food_id, number, rowid",
    ).iterate(),
  );

  const insert = db.prepare("INSERT INTO food_details (food_id, etag, zstd, gzip) VALUES (?, ?, ?, ?)");
  for (let start = 0; start < foods.length; start += FOODS_PER_BATCH) {
    const batch = foods.slice(start, start + FOODS_PER_BATCH);
    const json = batch.map((food) =>
      JSON.stringify(
        toFoodDetail(
          food,
          values.take(food.id),
          portions.take(food.id).map(({ foodId: _, ...portion }) => portion),
          footnotes.take(food.id).map(({ foodId: _, ...footnote }) => footnote),
          dictionaries,
        ),
      ),
    );
    // Compressed on Bun's thread pool, so the other cores work while this one builds the next batch's JSON.
    const packed = await Promise.all(json.map(storedForms));
    batch.forEach((food, i) => insert.run(food.id, ...packed[i]!));
    await yieldToSignals();
  }
  insert.finalize();
  return foods.length;
}

/**
 * The embedded catalog leaves the detail answers out: the binary carries them once, in the answers file
 * (../answer-file.ts), which is what serves them. Writes the catalog at `catalogPath` to `outPath` with an
 * empty `food_details` table (the schema stays the importer's), compacted.
 */
export function withoutFoodDetails(catalogPath: string, outPath: string): void {
  rmSync(outPath, { force: true });
  const full = new Database(catalogPath, { readonly: true });
  try {
    full.run("VACUUM INTO ?", [outPath]);
  } finally {
    full.close();
  }
  const slim = new Database(outPath);
  try {
    slim.run("DELETE FROM food_details");
    slim.run("VACUUM");
  } finally {
    slim.close();
  }
}

/**
 * Rows sorted by food id, handed out food by food as the foods are walked in the same order. Read as they
 * are handed out: all of nutrient_values at once would be ~250 MB more at the peak, in a server's first start.
 */
function walkByFood<Row extends { foodId: number }>(rows: IterableIterator<Row>) {
  let next = rows.next();
  return {
    take(foodId: number): Row[] {
      const taken: Row[] = [];
      for (; !next.done && next.value.foodId === foodId; next = rows.next()) taken.push(next.value);
      return taken;
    },
  };
}
