import { describe, expect, test } from "bun:test";
import { nutritionLabel } from "../../src/label/label";

// The label's shape (decisions §17): its lines in label order with their keys, names, SR28 nutrient numbers
// and units; what a line says when the food has no value for its nutrient.

const SERVING = { grams: 100, description: null };

describe("nutritionLabel", () => {
  test("fifteen lines in label order, each with its key, name, SR28 number and unit", () => {
    const label = nutritionLabel(SERVING, new Map());
    expect(label.lines.map((l) => [l.key, l.name, l.number, l.unit])).toEqual([
      ["calories", "Calories", "208", "kcal"],
      ["totalFat", "Total Fat", "204", "g"],
      ["saturatedFat", "Saturated Fat", "606", "g"],
      ["transFat", "Trans Fat", "605", "g"],
      ["cholesterol", "Cholesterol", "601", "mg"],
      ["sodium", "Sodium", "307", "mg"],
      ["totalCarbohydrate", "Total Carbohydrate", "205", "g"],
      ["dietaryFiber", "Dietary Fiber", "291", "g"],
      ["totalSugars", "Total Sugars", "269", "g"],
      ["addedSugars", "Added Sugars", null, "g"],
      ["protein", "Protein", "203", "g"],
      ["vitaminD", "Vitamin D", "328", "mcg"],
      ["calcium", "Calcium", "301", "mg"],
      ["iron", "Iron", "303", "mg"],
      ["potassium", "Potassium", "306", "mg"],
    ]);
    // Each line has exactly the keys of §17, in that order.
    for (const line of label.lines) expect(Object.keys(line)).toEqual(["key", "name", "number", "amount", "unit", "display", "dv"]);
  });

  test("a nutrient the food lacks: amount null, display 'not available', dv null; the serving as given", () => {
    const label = nutritionLabel({ grams: 28, description: "1 slice (1 oz)" }, new Map([["208", 404]]));
    expect(label.servingSize).toEqual({ grams: 28, description: "1 slice (1 oz)" });
    expect(label.lines[0]).toEqual({ key: "calories", name: "Calories", number: "208", amount: 113.12, unit: "kcal", display: "110", dv: null });
    for (const line of label.lines.slice(1)) expect([line.key, line.amount, line.display, line.dv]).toEqual([line.key, null, "not available", null]);
  });

  test("added sugars are never available (SR28 has none), whatever else the food has", () => {
    const everything = new Map(["208", "204", "606", "605", "601", "307", "205", "291", "269", "203", "328", "301", "303", "306"].map((n) => [n, 10]));
    const added = nutritionLabel(SERVING, everything).lines.find((l) => l.key === "addedSugars")!;
    expect(added).toEqual({ key: "addedSugars", name: "Added Sugars", number: null, amount: null, unit: "g", display: "not available", dv: null });
  });

  test("amount is value × grams / 100 exactly, unrounded; display the number and unit without a space", () => {
    // 33.31 g fat per 100 g × 28 g = 9.3268 g; 0.6 mcg vitamin D × 28 g = 0.168 mcg; 0.1 + 0.2 kinds of sums do not creep in.
    const label = nutritionLabel({ grams: 28, description: null }, new Map([["204", 33.31], ["328", 0.6], ["301", 0.3]]));
    const line = (key: string) => label.lines.find((l) => l.key === key)!;
    expect([line("totalFat").amount, line("totalFat").display, line("totalFat").dv]).toEqual([9.3268, "9g", 12]);
    expect([line("vitaminD").amount, line("vitaminD").display]).toEqual([0.168, "0.2mcg"]);
    expect(line("calcium").amount).toBe(0.084);
  });
});
