import type { Database } from "bun:sqlite";
import { onFirstUse } from "../platform/first-use";
import type { AnswerFile } from "./answer-file";
import type { Candidate } from "./ranking";
import type { CatalogStore, FoodGroupCount, FoodNutrientValue, NutrientDefinition, NutrientRanking, PortionRow } from "./store";

/** The importer's little-endian arrays (import/sqlite-rankings.ts), read whatever this machine's byte order. */
function decodeRanking(foodIdBytes: Uint8Array, valueBytes: Uint8Array): NutrientRanking {
  if (LITTLE_ENDIAN) return { foodIds: viewOf(foodIdBytes, Int32Array), values: viewOf(valueBytes, Float64Array) };
  const ids = new DataView(foodIdBytes.buffer, foodIdBytes.byteOffset, foodIdBytes.byteLength);
  const values = new DataView(valueBytes.buffer, valueBytes.byteOffset, valueBytes.byteLength);
  const ranking = { foodIds: new Int32Array(foodIdBytes.byteLength / 4), values: new Float64Array(valueBytes.byteLength / 8) };
  for (let i = 0; i < ranking.foodIds.length; i++) ranking.foodIds[i] = ids.getInt32(i * 4, true);
  for (let i = 0; i < ranking.values.length; i++) ranking.values[i] = values.getFloat64(i * 8, true);
  return ranking;
}

/** The bytes as a typed array: a view when they are aligned for it (a blob read is its own buffer), else a copy. */
function viewOf<T extends Int32Array | Float64Array>(bytes: Uint8Array, type: { new (buffer: ArrayBufferLike, offset?: number, length?: number): T; BYTES_PER_ELEMENT: number }): T {
  const aligned = bytes.byteOffset % type.BYTES_PER_ELEMENT === 0 ? bytes : bytes.slice();
  return new type(aligned.buffer, aligned.byteOffset, aligned.byteLength / type.BYTES_PER_ELEMENT);
}

/** "1001,1002,..." (non-negative integers separated by commas) as numbers, read without a string per number. */
function parseIdList(text: string): Int32Array {
  if (text === "") return new Int32Array(0);
  let commas = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === COMMA) commas++;
  const ids = new Int32Array(commas + 1);
  let id = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === COMMA) {
      ids[n++] = id;
      id = 0;
    } else id = id * 10 + (code - ZERO);
  }
  ids[n] = id;
  return ids;
}
const COMMA = ",".charCodeAt(0);
const ZERO = "0".charCodeAt(0);

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The catalog's reads from its SQLite database, and its detail answers from its answers file
 * (answer-file.ts). Plain prepared SQL, not drizzle: the importer writes the tables from their drizzle
 * declarations (sqlite-schema.ts, which test/catalog/catalog-import.test.ts checks against the DDL), but
 * building those declarations cost every start time for three queries run once, and on request paths
 * building a drizzle query costs more than running it. The catalog is immutable while served, so the small
 * lists (groups, nutrients, counts) are read once and kept.
 */
export function createSqliteCatalogStore(sqlite: Database, answers: AnswerFile): CatalogStore {
  // Each statement is prepared at its first use, not at the start: a route's first request pays for its own
  // (FTS5's connects to its tables), and a start answers sooner without preparing all of them.
  // Plain prepared SQL: the food index reads every food once per worker, and drizzle's row mapping left
  // more garbage resident in the worker than the rows themselves (figures: docs/performance.md).
  const allFoods = onFirstUse(() => sqlite.query<Candidate, []>(
    "SELECT food_number AS foodNumber, name, search_name AS searchName, group_code AS groupCode, manufacturer FROM foods ORDER BY id",
  ));
  // The detail route's existence check needs the ids alone: one text, not a row per food.
  const allIds = onFirstUse(() => sqlite.query<{ ids: string | null }, []>("SELECT group_concat(id) AS ids FROM foods"));
  // FTS5's MATCH has no drizzle builder: plain prepared SQL. The ids come as one text ("1001,1002,...")
  // parsed in place: read as rows, a common term's thousands of matches were an array each.
  const ftsIds = onFirstUse(() => sqlite.query<{ ids: string | null }, [string]>("SELECT group_concat(rowid) AS ids FROM food_search WHERE food_search MATCH ?1"));
  // Plain prepared SQL too: the blobs come as they are, without drizzle's copy of each into a Buffer.
  type RankingRow = { foodIds: Uint8Array; values: Uint8Array };
  const rankingOf = onFirstUse(() => sqlite.query<RankingRow, [string]>(`SELECT food_ids AS foodIds, "values" FROM nutrient_rankings WHERE nutrient_number = ?1`));

  // Plain prepared SQL, as above: the portions are read once per worker (15,438 rows), a food's values on
  // every analysed recipe line whose food is not cached; a food's portions and values on every label.
  const allPortionRows = onFirstUse(() => sqlite.query<PortionRow, []>("SELECT food_id AS foodId, seq, amount, description, grams FROM portions ORDER BY food_id, seq"));
  const portionsOf = onFirstUse(() => sqlite.query<PortionRow, [number]>("SELECT food_id AS foodId, seq, amount, description, grams FROM portions WHERE food_id = ?1 ORDER BY seq"));
  const valuesOf = onFirstUse(() => sqlite.query<FoodNutrientValue, [number]>("SELECT nutrient_number AS number, value FROM nutrient_values WHERE food_id = ?1"));

  let groupsCache: FoodGroupCount[] | undefined;
  let nutrientsCache: NutrientDefinition[] | undefined;
  let infoCache: Record<string, string> | undefined;

  return {
    foodIdsMatching(match) {
      return parseIdList(ftsIds().get(match)?.ids ?? "");
    },

    allCandidates() {
      return allFoods().all();
    },

    foodIds() {
      return parseIdList(allIds().get()?.ids ?? "");
    },

    nutrientRanking(number) {
      const row = rankingOf().get(number);
      return row ? decodeRanking(row.foodIds, row.values) : undefined;
    },

    storedDetail(foodId, form) {
      return answers.answer(foodId, form);
    },

    storedEtag(foodId) {
      return answers.etag(foodId);
    },

    allPortions() {
      return allPortionRows().all();
    },

    foodPortions(foodId) {
      return portionsOf().all(foodId);
    },

    nutrientValues(foodId) {
      return valuesOf().all(foodId);
    },

    foodGroups() {
      groupsCache ??= sqlite
        .query<FoodGroupCount, []>("SELECT g.code, g.name, count(f.id) AS foodCount FROM food_groups g LEFT JOIN foods f ON f.group_code = g.code GROUP BY g.code ORDER BY g.code")
        .all();
      return groupsCache;
    },

    nutrients() {
      nutrientsCache ??= sqlite.query<NutrientDefinition, []>("SELECT number, name, unit, tag, decimals, sr_order AS srOrder FROM nutrients ORDER BY sr_order, number").all();
      return nutrientsCache;
    },

    info() {
      infoCache ??= Object.fromEntries(sqlite.query<{ key: string; value: string }, []>("SELECT key, value FROM catalog_info").all().map((row) => [row.key, row.value]));
      return infoCache;
    },

    ping() {
      sqlite.query("SELECT 1 FROM foods LIMIT 1").get();
    },

    close: () => {
      sqlite.close();
      answers.close();
    },
  };
}
