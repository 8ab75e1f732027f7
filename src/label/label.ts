import { decimalText, type Exact, exact, over, times } from "./exact";
import { LABEL_LINES, type LineDeclaration, type LineKey } from "./lines";
import { isZeroShown, type Shown } from "./rounding";

/** What a label is for: grams of edible portion, and the portion's words where it is one ("1 tbsp"). */
export interface ServingSize {
  grams: number;
  description: string | null;
}

export interface LabelLine {
  key: LineKey;
  name: string;
  number: string | null;
  /** Per serving, unrounded; null where the food has no value for the nutrient. */
  amount: number | null;
  unit: LineDeclaration["unit"];
  /** As the label prints it: "3g", "0.5g", "<1g", "140mg", calories as the number alone; or "not available". */
  display: string;
  /** Per cent of the Daily Value, rounded; null where the line states none or the amount is unknown. */
  dv: number | null;
}

/** decisions §17: the Nutrition Facts label of a serving. */
export interface NutritionLabel {
  servingSize: ServingSize;
  lines: LabelLine[];
}

const NOT_AVAILABLE = "not available";
const HUNDRED = exact(100);

/**
 * The label of `servingSize` of a food whose values per 100 g (SR28's, by nutrient number) are
 * `valuesPer100g`. Every amount is value × grams / 100 computed exactly, rounded for display by its line's
 * rule; the %DV is computed from the unrounded amount, except that a display of 0 states 0 %.
 */
export function nutritionLabel(servingSize: ServingSize, valuesPer100g: ReadonlyMap<string, number>): NutritionLabel {
  const grams = exact(servingSize.grams);
  return labelOf(servingSize, (number) => {
    const value = valuesPer100g.get(number);
    return value === undefined ? undefined : over(times(exact(value), grams), HUNDRED);
  });
}

/**
 * The label of a serving whose amounts are known already (a recipe's per serving, by nutrient number, in
 * each nutrient's unit; null or absent where none is known), rounded and stated as `nutritionLabel` does.
 */
export function servingLabel(servingSize: ServingSize, amounts: ReadonlyMap<string, number | null>): NutritionLabel {
  return labelOf(servingSize, (number) => {
    const amount = amounts.get(number);
    return amount === undefined || amount === null ? undefined : exact(amount);
  });
}

function labelOf(servingSize: ServingSize, amountOf: (number: string) => Exact | undefined): NutritionLabel {
  return {
    servingSize,
    lines: LABEL_LINES.map((line): LabelLine => {
      const amount = line.number === null ? undefined : amountOf(line.number);
      const { key, name, number, unit } = line;
      if (amount === undefined) return { key, name, number, amount: null, unit, display: NOT_AVAILABLE, dv: null };
      const shown = line.display(amount);
      let dv: number | null = null;
      if (line.percent !== null && line.dailyValue !== null) {
        dv = isZeroShown(shown) ? 0 : Number(decimalText(line.percent(over(times(amount, HUNDRED), exact(line.dailyValue)))));
      }
      return { key, name, number, amount: Number(decimalText(amount)), unit, display: displayText(shown, unit), dv };
    }),
  };
}

/** "3g", "<5mg", "0mcg"; calories as the number alone. */
function displayText(shown: Shown, unit: string): string {
  const suffix = unit === "kcal" ? "" : unit;
  return "amount" in shown ? `${decimalText(shown.amount)}${suffix}` : `<${decimalText(shown.lessThan)}${suffix}`;
}
