import type { Database } from "bun:sqlite";
import { asc, count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { catalogInfo, foodGroups, foods, nutrients } from "./sqlite-schema";
import type { Candidate } from "./ranking";
import type { CatalogStore, FoodGroupCount, NutrientDefinition, StoredCoding, StoredDetail } from "./store";

/**
 * The catalog's reads from its SQLite database. Queries on request paths are prepared once (building a
 * drizzle query costs more than running it); the catalog is immutable while served, so the small lists
 * (groups, nutrients, counts) are read once and kept.
 */
export function createSqliteCatalogStore(sqlite: Database): CatalogStore {
  const db = drizzle(sqlite);
  const placeholder = sql.placeholder;

  const candidateColumns = { foodNumber: foods.foodNumber, name: foods.name, searchName: foods.searchName };
  // FTS5's MATCH has no drizzle builder; these two stay plain prepared SQL.
  const ftsCandidates = sqlite.query<Candidate, [string]>(
    `SELECT f.food_number AS foodNumber, f.name, f.search_name AS searchName
       FROM food_search JOIN foods f ON f.id = food_search.rowid WHERE food_search MATCH ?1`,
  );
  const ftsCandidatesInGroup = sqlite.query<Candidate, [string, string]>(
    `SELECT f.food_number AS foodNumber, f.name, f.search_name AS searchName
       FROM food_search JOIN foods f ON f.id = food_search.rowid WHERE food_search MATCH ?1 AND f.group_code = ?2`,
  );
  const allFoods = db.select(candidateColumns).from(foods).orderBy(asc(foods.id)).prepare();
  const foodsInGroup = db.select(candidateColumns).from(foods).where(eq(foods.groupCode, placeholder("group"))).orderBy(asc(foods.id)).prepare();
  // Plain prepared SQL: one row on every detail request, and drizzle's row mapping costs more than the lookup.
  const detailQuery = (column: StoredCoding) => sqlite.query<StoredDetail, [number]>(`SELECT etag, ${column} AS body FROM food_details WHERE food_id = ?1`);
  const detailIn = { zstd: detailQuery("zstd"), gzip: detailQuery("gzip") } satisfies Record<StoredCoding, unknown>;

  let groupsCache: FoodGroupCount[] | undefined;
  let nutrientsCache: NutrientDefinition[] | undefined;
  let infoCache: Record<string, string> | undefined;

  return {
    candidatesMatching(match, group) {
      return group === undefined ? ftsCandidates.all(match) : ftsCandidatesInGroup.all(match, group);
    },

    allCandidates(group) {
      return group === undefined ? allFoods.all() : foodsInGroup.all({ group });
    },

    storedDetail(foodId, coding) {
      return detailIn[coding].get(foodId) ?? undefined;
    },

    foodGroups() {
      groupsCache ??= db
        .select({ code: foodGroups.code, name: foodGroups.name, foodCount: count(foods.id) })
        .from(foodGroups)
        .leftJoin(foods, eq(foods.groupCode, foodGroups.code))
        .groupBy(foodGroups.code)
        .orderBy(asc(foodGroups.code))
        .all();
      return groupsCache;
    },

    nutrients() {
      nutrientsCache ??= db.select().from(nutrients).orderBy(asc(nutrients.srOrder), asc(nutrients.number)).all();
      return nutrientsCache;
    },

    info() {
      infoCache ??= Object.fromEntries(db.select().from(catalogInfo).all().map((row) => [row.key, row.value]));
      return infoCache;
    },

    ping() {
      sqlite.query("SELECT 1 FROM foods LIMIT 1").get();
    },

    close: () => sqlite.close(),
  };
}
