import type { Database } from "bun:sqlite";
import { asc, count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import {
  catalogInfo, derivations, foodGroups, foods, footnotes, nutrientValues, nutrients, portions,
} from "./schema";
import type { Candidate } from "./ranking";

/**
 * Every read of the catalog database. Queries on request paths are prepared once (building a drizzle
 * query costs more than running it); the catalog is immutable while served, so the small lists (groups,
 * nutrients, counts) are read once and kept.
 */
export type CatalogStore = ReturnType<typeof createCatalogStore>;

export function createCatalogStore(sqlite: Database) {
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
  // Plain prepared SQL for the same reason as the values below: one row, but drizzle's mapping of a
  // joined row cost more than the lookup.
  const foodByNumber = sqlite.query<typeof foods.$inferSelect & { groupName: string }, [string]>(
    `SELECT f.id, f.food_number AS foodNumber, f.group_code AS groupCode, f.name, f.search_name AS searchName,
            f.short_name AS shortName, f.common_name AS commonName, f.manufacturer, f.scientific_name AS scientificName,
            f.refuse_percent AS refusePercent, f.refuse_description AS refuseDescription,
            f.nitrogen_factor AS nitrogenFactor, f.protein_factor AS proteinFactor, f.fat_factor AS fatFactor,
            f.carbohydrate_factor AS carbohydrateFactor, g.name AS groupName
       FROM foods f JOIN food_groups g ON g.code = f.group_code WHERE f.food_number = ?1`,
  );
  // Only the values: nutrient definitions and derivation descriptions are small and joined in memory
  // (joining them here made this query six times slower). Plain prepared SQL: for ~115 rows drizzle's
  // row mapping cost twice the query itself.
  type ValueRow = Pick<typeof nutrientValues.$inferSelect, "nutrientNumber" | "value" | "dataPoints" | "stdError" | "derivationCode">;
  const valuesOfFood = sqlite.query<ValueRow, [number]>(
    `SELECT nutrient_number AS nutrientNumber, value, data_points AS dataPoints, std_error AS stdError,
            derivation_code AS derivationCode
       FROM nutrient_values WHERE food_id = ?1`,
  );
  const portionsOfFood = db
    .select({ seq: portions.seq, amount: portions.amount, description: portions.description, grams: portions.grams })
    .from(portions)
    .where(eq(portions.foodId, placeholder("foodId")))
    .orderBy(asc(portions.seq))
    .prepare();
  const footnotesOfFood = db
    .select({ number: footnotes.number, type: footnotes.type, nutrientNumber: footnotes.nutrientNumber, text: footnotes.text })
    .from(footnotes)
    .where(eq(footnotes.foodId, placeholder("foodId")))
    .orderBy(asc(footnotes.number), asc(sql`rowid`))
    .prepare();

  let groupsCache: { code: string; name: string; foodCount: number }[] | undefined;
  let derivationsCache: Map<string, string> | undefined;
  let nutrientsCache: (typeof nutrients.$inferSelect)[] | undefined;
  let infoCache: Record<string, string> | undefined;

  return {
    /** Foods whose folded name contains every trigram phrase in `match` (an FTS5 expression). */
    candidatesMatching(match: string, group: string | undefined): Candidate[] {
      return group === undefined ? ftsCandidates.all(match) : ftsCandidatesInGroup.all(match, group);
    },

    /** Every food (optionally of one group) in food-number order. */
    allCandidates(group: string | undefined): Candidate[] {
      return group === undefined ? allFoods.all() : foodsInGroup.all({ group });
    },

    food(foodNumber: string) {
      return foodByNumber.get(foodNumber);
    },

    nutrientValuesOf(foodId: number) {
      return valuesOfFood.all(foodId);
    },

    portionsOf(foodId: number) {
      return portionsOfFood.all({ foodId });
    },

    footnotesOf(foodId: number) {
      return footnotesOfFood.all({ foodId });
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

    /** Derivation code to its description. */
    derivations(): ReadonlyMap<string, string> {
      derivationsCache ??= new Map(db.select().from(derivations).all().map((d) => [d.code, d.description]));
      return derivationsCache;
    },

    nutrients() {
      nutrientsCache ??= db.select().from(nutrients).orderBy(asc(nutrients.srOrder), asc(nutrients.number)).all();
      return nutrientsCache;
    },

    info(): Readonly<Record<string, string>> {
      infoCache ??= Object.fromEntries(db.select().from(catalogInfo).all().map((row) => [row.key, row.value]));
      return infoCache;
    },

    /** A real query, for /healthz. */
    ping(): void {
      sqlite.query("SELECT 1 FROM foods LIMIT 1").get();
    },
  };
}
