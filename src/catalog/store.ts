import type { Coding } from "../platform/http/accept-encoding";
import type { Candidate } from "./ranking";

/**
 * The contract of the catalog's reads. The catalog is immutable while served and embedded in every
 * instance (nothing about it is shared between instances), so its reads are synchronous.
 */
export interface CatalogStore {
  /**
   * The ids (NDB_No as integers) of the foods whose folded name contains every trigram phrase in `match`
   * (an FTS5 expression), in no particular order: ids only, in one array, so that a search makes no row objects.
   */
  foodIdsMatching(match: string): Int32Array;
  /** Every food in food-number order. */
  allCandidates(): Candidate[];
  /** Every food's id (NDB_No as an integer), in no particular order: numbers only, no row objects. */
  foodIds(): Int32Array;
  /**
   * A nutrient's foods that have a value, ordered by value then food id, with their values (food ids are
   * NDB_No as integers); undefined for a number that is not a nutrient. The arrays are the caller's: a
   * fresh copy on every call, which it may keep or overwrite.
   */
  nutrientRanking(number: string): NutrientRanking | undefined;
  /**
   * A food's detail answer as the importer made it, as JSON (`identity`) or compressed as a stored coding,
   * with the entity tag base of its JSON; food ids are NDB_No as integers. The bytes must not be written
   * to, and are the caller's only until its next call: a stored coding is a view of memory shared with every
   * worker, the JSON a buffer the store reuses (answer-file.ts). Copy them to keep them.
   */
  storedDetail(foodId: number, form: AnswerForm): StoredDetail | undefined;
  /** The entity tag base of a food's stored detail (`storedDetail`'s `etag`) without its bytes: a 304 sends none. */
  storedEtag(foodId: number): string | undefined;
  /**
   * Every food's SR28 portions (WEIGHT), by food id then seq: read once, to turn a recipe's amounts into grams
   * (src/analysis/). Food ids are NDB_No as integers.
   */
  allPortions(): PortionRow[];
  /** A food's SR28 portions (WEIGHT) in seq order: what a label's serving may be. Food ids are NDB_No as integers. */
  foodPortions(foodId: number): PortionRow[];
  /** A food's nutrient values per 100 g as SR28 gives them (numbers and values only), in no particular order. */
  nutrientValues(foodId: number): FoodNutrientValue[];
  /** Every food group with its number of foods, by code. */
  foodGroups(): FoodGroupCount[];
  /** Every nutrient definition, in SR order. */
  nutrients(): NutrientDefinition[];
  /** The import's facts: `release`, `importedAt`, `count.<table>`. */
  info(): Readonly<Record<string, string>>;
  /** Throws unless the catalog answers a real query (for /healthz). */
  ping(): void;
  close(): void;
}

export interface NutrientRanking {
  readonly foodIds: Int32Array;
  readonly values: Float64Array;
}

/** A row of SR28's WEIGHT: `amount` of `description` weighs `grams`. */
export interface PortionRow {
  foodId: number;
  seq: number;
  amount: number;
  description: string;
  grams: number;
}

export interface FoodNutrientValue {
  /** Nutr_No: three digits. */
  number: string;
  /** Per 100 g of edible portion. */
  value: number;
}

export interface FoodGroupCount {
  code: string;
  name: string;
  foodCount: number;
}

/** A row of SR28's NUTR_DEF. */
export interface NutrientDefinition {
  /** Nutr_No: three digits. */
  number: string;
  name: string;
  unit: string;
  /** INFOODS tagname; some nutrients have none. */
  tag: string | null;
  /** Decimal places SR rounds the values to. */
  decimals: number;
  srOrder: number;
}

export interface StoredDetail {
  etag: string;
  body: Uint8Array<ArrayBuffer>;
}

/** The codings a detail is stored in (in the server's order of preference), by the importer (import/sqlite-details.ts). */
export const STORED_CODINGS = ["zstd", "gzip"] as const satisfies readonly Coding[];
type StoredCoding = (typeof STORED_CODINGS)[number];
/** The forms a detail answer is kept in, ready to send: its JSON and each stored coding (answer-file.ts). */
export const ANSWER_FORMS = ["identity", ...STORED_CODINGS] as const;
export type AnswerForm = (typeof ANSWER_FORMS)[number];
