import { analyzeRecipe } from "../../../src/analysis/service";
import { catalogAnalysis } from "../catalog-analysis";
import { DEV_SET } from "./dev-set";

/**
 * How the analysis does on the development set: the share of counted (matched) lines whose food a cook
 * accepts, and of those the share within 15 % of SR28's grams. Run: bun test/analysis/dev/accuracy.ts
 */
export async function devAccuracy() {
  const { analysis } = await catalogAnalysis();
  const { items } = analyzeRecipe(analysis, { lines: DEV_SET.map((d) => d.line), servings: 1, nutrients: [] });
  const rows = items.map((item, i) => {
    const expected = DEV_SET[i]!;
    const counted = item.status === "matched";
    const foodOk = counted && expected.foods.includes(item.food!.foodNumber);
    const gramsOk = foodOk && Math.abs(item.grams - expected.grams) <= 0.15 * expected.grams;
    return { line: expected.line, counted, foodOk, gramsOk, food: item.food?.name ?? `(${item.reason})`, grams: item.grams, expected: expected.grams };
  });
  const counted = rows.filter((r) => r.counted).length;
  const foods = rows.filter((r) => r.foodOk).length;
  const grams = rows.filter((r) => r.gramsOk).length;
  return { rows, counted, foodRate: foods / Math.max(1, counted), gramsRate: grams / Math.max(1, foods) };
}

if (import.meta.main) {
  const { rows, counted, foodRate, gramsRate } = await devAccuracy();
  for (const r of rows) {
    const mark = !r.counted ? "  -  " : !r.foodOk ? "FOOD " : !r.gramsOk ? "GRAMS" : " ok  ";
    console.log(`${mark} ${r.line.padEnd(44)} ${r.food.slice(0, 50).padEnd(50)} ${String(r.grams).padStart(7)} g (SR28: ${r.expected})`);
  }
  console.log(`\n${counted} of ${rows.length} lines counted; foods a cook accepts: ${(foodRate * 100).toFixed(1)} %; of those within 15 % of SR28's grams: ${(gramsRate * 100).toFixed(1)} %`);
}
