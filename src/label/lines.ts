import * as rule from "./rounding";

/**
 * The lines of the label (decisions §17), once, in label order: what each is called, which SR28 nutrient
 * gives its amount, its unit, its Daily Value (FDA, 2016 rule, adults and children 4 years and older), how
 * its amount is rounded for display and how its percentage of the Daily Value is.
 */
export interface LineDeclaration {
  readonly key: string;
  readonly name: string;
  /** Nutr_No in SR28, or null where SR28 has no such nutrient. */
  readonly number: string | null;
  readonly unit: "kcal" | "g" | "mg" | "mcg";
  /** In `unit`; null where the rule sets none. */
  readonly dailyValue: number | null;
  readonly display: rule.DisplayRule;
  /** Null where the label states no %DV. */
  readonly percent: rule.PercentRule | null;
}

export const LABEL_LINES = [
  { key: "calories", name: "Calories", number: "208", unit: "kcal", dailyValue: null, display: rule.calories, percent: null },
  { key: "totalFat", name: "Total Fat", number: "204", unit: "g", dailyValue: 78, display: rule.fat, percent: rule.wholePercent },
  { key: "saturatedFat", name: "Saturated Fat", number: "606", unit: "g", dailyValue: 20, display: rule.fat, percent: rule.wholePercent },
  { key: "transFat", name: "Trans Fat", number: "605", unit: "g", dailyValue: null, display: rule.fat, percent: null },
  { key: "cholesterol", name: "Cholesterol", number: "601", unit: "mg", dailyValue: 300, display: rule.cholesterol, percent: rule.wholePercent },
  { key: "sodium", name: "Sodium", number: "307", unit: "mg", dailyValue: 2300, display: rule.sodiumOrPotassium, percent: rule.wholePercent },
  { key: "totalCarbohydrate", name: "Total Carbohydrate", number: "205", unit: "g", dailyValue: 275, display: rule.grams, percent: rule.wholePercent },
  { key: "dietaryFiber", name: "Dietary Fiber", number: "291", unit: "g", dailyValue: 28, display: rule.grams, percent: rule.wholePercent },
  { key: "totalSugars", name: "Total Sugars", number: "269", unit: "g", dailyValue: null, display: rule.grams, percent: null },
  // SR28 tells total sugars only: added sugars are "not available" on every label it makes.
  { key: "addedSugars", name: "Added Sugars", number: null, unit: "g", dailyValue: 50, display: rule.grams, percent: rule.wholePercent },
  // A %DV for protein must be corrected for protein quality (101.9(c)(7)), which SR28 does not give: none.
  { key: "protein", name: "Protein", number: "203", unit: "g", dailyValue: 50, display: rule.grams, percent: null },
  { key: "vitaminD", name: "Vitamin D", number: "328", unit: "mcg", dailyValue: 20, display: rule.nearestTenth, percent: rule.vitaminOrMineralPercent },
  { key: "calcium", name: "Calcium", number: "301", unit: "mg", dailyValue: 1300, display: rule.nearestTen, percent: rule.vitaminOrMineralPercent },
  { key: "iron", name: "Iron", number: "303", unit: "mg", dailyValue: 18, display: rule.nearestTenth, percent: rule.vitaminOrMineralPercent },
  { key: "potassium", name: "Potassium", number: "306", unit: "mg", dailyValue: 4700, display: rule.sodiumOrPotassium, percent: rule.vitaminOrMineralPercent },
] as const satisfies readonly LineDeclaration[];

export type LineKey = (typeof LABEL_LINES)[number]["key"];
