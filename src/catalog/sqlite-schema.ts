import { blob, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { SameShape } from "../platform/storage/same-shape";
import type { NutrientDefinition } from "./store";

/**
 * The food catalog: SR28 as imported by `foodapi import`, read-only at run time. Foods are keyed by
 * NDB_No as an integer (`id`) so that child rows and the FTS index stay small; `foodNumber` keeps the
 * zero-padded text the API speaks.
 */

export const foodGroups = sqliteTable("food_groups", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
});

export const foods = sqliteTable(
  "foods",
  {
    id: integer("id").primaryKey(),
    foodNumber: text("food_number").notNull().unique(),
    groupCode: text("group_code").notNull(),
    name: text("name").notNull(),
    /** `name` lower-cased with diacritics removed: what search matches against. */
    searchName: text("search_name").notNull(),
    shortName: text("short_name").notNull(),
    commonName: text("common_name"),
    manufacturer: text("manufacturer"),
    scientificName: text("scientific_name"),
    refusePercent: real("refuse_percent"),
    refuseDescription: text("refuse_description"),
    nitrogenFactor: real("nitrogen_factor"),
    proteinFactor: real("protein_factor"),
    fatFactor: real("fat_factor"),
    carbohydrateFactor: real("carbohydrate_factor"),
  },
  (t) => [index("foods_group_idx").on(t.groupCode, t.id)],
);

export const nutrients = sqliteTable("nutrients", {
  number: text("number").primaryKey(),
  name: text("name").notNull(),
  unit: text("unit").notNull(),
  tag: text("tag"),
  decimals: integer("decimals").notNull(),
  srOrder: integer("sr_order").notNull(),
});

true satisfies SameShape<typeof nutrients.$inferSelect, NutrientDefinition>;

export const derivations = sqliteTable("derivations", {
  code: text("code").primaryKey(),
  description: text("description").notNull(),
});

export const nutrientValues = sqliteTable(
  "nutrient_values",
  {
    foodId: integer("food_id").notNull(),
    nutrientNumber: text("nutrient_number").notNull(),
    value: real("value").notNull(),
    dataPoints: integer("data_points").notNull(),
    stdError: real("std_error"),
    derivationCode: text("derivation_code"),
  },
  (t) => [primaryKey({ columns: [t.foodId, t.nutrientNumber] })],
);

export const portions = sqliteTable(
  "portions",
  {
    foodId: integer("food_id").notNull(),
    seq: integer("seq").notNull(),
    amount: real("amount").notNull(),
    description: text("description").notNull(),
    grams: real("grams").notNull(),
  },
  (t) => [primaryKey({ columns: [t.foodId, t.seq] })],
);

export const footnotes = sqliteTable(
  "footnotes",
  {
    foodId: integer("food_id").notNull(),
    number: text("number").notNull(),
    type: text("type").notNull(),
    nutrientNumber: text("nutrient_number"),
    text: text("text").notNull(),
  },
  (t) => [index("footnotes_food_idx").on(t.foodId)],
);

/**
 * Each food's `GET /v1/foods/{n}` answer, assembled once by the importer from the tables above, in the content
 * codings import/sqlite-details.ts stores, with the entity tag of its JSON. The small
 * columns first: a row is read up to the column asked for.
 */
export const foodDetails = sqliteTable("food_details", {
  foodId: integer("food_id").primaryKey(),
  etag: text("etag").notNull(),
  zstd: blob("zstd", { mode: "buffer" }).notNull(),
  gzip: blob("gzip", { mode: "buffer" }).notNull(),
});

/**
 * Each nutrient's foods in value order, prepared by the importer (see import/sqlite-rankings.ts), so a
 * search sorted or filtered by a nutrient reads one row instead of scanning `nutrient_values`:
 * `food_ids` are the foods that have a value (int32, little-endian) ordered by value then food id, and
 * `values` their values in the same order (float64, little-endian).
 */
export const nutrientRankings = sqliteTable("nutrient_rankings", {
  nutrientNumber: text("nutrient_number").primaryKey(),
  foodIds: blob("food_ids", { mode: "buffer" }).notNull(),
  values: blob("values", { mode: "buffer" }).notNull(),
});

/** Counts and provenance written once by the importer, read by `/v1/meta`. */
export const catalogInfo = sqliteTable("catalog_info", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * DDL for the tables above plus the FTS5 index, applied by the importer. Kept beside the drizzle
 * definitions it mirrors; test/catalog/catalog-import.test.ts checks the two agree column for column.
 */
export const CATALOG_DDL = `
CREATE TABLE food_groups (code TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE foods (
  id INTEGER PRIMARY KEY,
  food_number TEXT NOT NULL UNIQUE,
  group_code TEXT NOT NULL REFERENCES food_groups(code),
  name TEXT NOT NULL,
  search_name TEXT NOT NULL,
  short_name TEXT NOT NULL,
  common_name TEXT,
  manufacturer TEXT,
  scientific_name TEXT,
  refuse_percent REAL,
  refuse_description TEXT,
  nitrogen_factor REAL,
  protein_factor REAL,
  fat_factor REAL,
  carbohydrate_factor REAL
);
CREATE INDEX foods_group_idx ON foods (group_code, id);
CREATE TABLE nutrients (
  number TEXT PRIMARY KEY, name TEXT NOT NULL, unit TEXT NOT NULL, tag TEXT,
  decimals INTEGER NOT NULL, sr_order INTEGER NOT NULL
);
CREATE TABLE derivations (code TEXT PRIMARY KEY, description TEXT NOT NULL);
CREATE TABLE nutrient_values (
  food_id INTEGER NOT NULL REFERENCES foods(id),
  nutrient_number TEXT NOT NULL REFERENCES nutrients(number),
  value REAL NOT NULL,
  data_points INTEGER NOT NULL,
  std_error REAL,
  derivation_code TEXT,
  PRIMARY KEY (food_id, nutrient_number)
) WITHOUT ROWID;
CREATE TABLE portions (
  food_id INTEGER NOT NULL REFERENCES foods(id),
  seq INTEGER NOT NULL,
  amount REAL NOT NULL,
  description TEXT NOT NULL,
  grams REAL NOT NULL,
  PRIMARY KEY (food_id, seq)
) WITHOUT ROWID;
CREATE TABLE footnotes (
  food_id INTEGER NOT NULL REFERENCES foods(id),
  number TEXT NOT NULL,
  type TEXT NOT NULL,
  nutrient_number TEXT,
  text TEXT NOT NULL
);
CREATE INDEX footnotes_food_idx ON footnotes (food_id);
CREATE TABLE food_details (food_id INTEGER PRIMARY KEY REFERENCES foods(id), etag TEXT NOT NULL, zstd BLOB NOT NULL, gzip BLOB NOT NULL);
CREATE TABLE nutrient_rankings (
  nutrient_number TEXT PRIMARY KEY REFERENCES nutrients(number),
  food_ids BLOB NOT NULL,
  "values" BLOB NOT NULL
);
CREATE TABLE catalog_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Substring search: the trigram tokenizer indexes every 3-character run of the folded name. Contentless:
-- matches are joined back to foods by rowid (= foods.id).
CREATE VIRTUAL TABLE food_search USING fts5(search_name, tokenize = 'trigram', content = '');
`;
