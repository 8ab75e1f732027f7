import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The evaluation set for recipe analysis (decisions §16): ingredient lines as cooks write them, each with
 * the SR28 foods a cook would accept and the grams SR28's own portions give. Read by eval-set.test.ts (which
 * checks the set against SR28) and score.ts (which measures POST /v1/analyze against it). README.md says how
 * the lines were chosen and the grams derived.
 */

/** How an expected grams figure follows from SR28: a WEIGHT row, or a mass unit converted exactly. */
type Derivation =
  /** grams = measures x Gm_Wgt / Amount: `measures` is the line's quantity in the unit the row counts. */
  | { weight: { food: string; seq: number }; measures: number }
  | { mass: number; unit: MassUnit };

export interface ExpectedGrams {
  grams: number;
  /** For a reader: the WEIGHT row (or mass) and the step from the line's quantity to the grams. */
  gramsNote: string;
  via: Derivation;
}

export interface CountedLine extends ExpectedGrams {
  count: true;
  /** SR28 food numbers a cook would accept for the line, best first; `grams` is for the first. */
  foods: string[];
  /** Grams for another acceptable food whose portions differ from the first's by more than the 15 % the scorer allows. */
  gramsFor?: Record<string, ExpectedGrams>;
}

type NotCountedReason = "quantity" | "food" | "unit";

interface NotCountedLine {
  count: false;
  reason: NotCountedReason;
  note: string;
}

export interface EvalLine {
  line: string;
  expect: CountedLine | NotCountedLine;
}

export interface EvalRecipe {
  id: string;
  title: string;
  kind: string;
  style: string;
  lines: EvalLine[];
}

export const SET_NAMES = ["lines", "held-out"] as const;
export type SetName = (typeof SET_NAMES)[number];

export function loadEvalSet(name: SetName): EvalRecipe[] {
  return (JSON.parse(readFileSync(join(import.meta.dir, `${name}.json`), "utf8")) as { recipes: EvalRecipe[] }).recipes;
}

/** §16's mass units, exact. */
export const GRAMS_PER_MASS_UNIT = { g: 1, kg: 1000, mg: 0.001, oz: 28.349523, lb: 453.59237 } as const;
export type MassUnit = keyof typeof GRAMS_PER_MASS_UNIT;

/** The grams a cook's choice of `foodNumber` should get, or undefined when the line does not accept it. */
export function expectedGramsFor(expect: CountedLine, foodNumber: string): number | undefined {
  if (!expect.foods.includes(foodNumber)) return undefined;
  return expect.gramsFor?.[foodNumber]?.grams ?? expect.grams;
}

/** The forms of writing the issue asks the set to hold, each recognised in a line's text. */
export const LINE_FEATURES = {
  metric: /\b\d+(?:[.,]\d+)?\s*(?:g|kg|ml|l|litres?|liters?)\b/i,
  unicodeFraction: /[\u00BC-\u00BE\u2150-\u215E]/,
  range: /\d\s*(?:-|–|to)\s*\d/,
  numberWord: /^(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|dozen)\b/i,
  parenthesisedSize: /\(\s*\d[\d.\s/]*\s*(?:oz|ounces?|g|ml|lbs?)\s*\)/i,
  diacritic: /[\u00C0-\u00FF]/,
  size: /\b(?:small|medium|large|extra large|jumbo)\b/i,
  plural: /\b(?:eggs|bananas|onions|tomatoes|carrots|potatoes|cloves|stalks|jalapeños|tortillas|scallions|limes|leaves|slices|cans|chips|walnuts|pecans|peanuts|olives|lentils|chickpeas|noodles|croutons|fillets|sprouts|seeds|crusts|apples|chops|breasts|sprigs)\b/i,
} as const;
