import { describe, expect, test } from "bun:test";
import { analyzeLine } from "./catalog-analysis";

/**
 * Grams through SR28's own portions (decisions §16), on real foods; the expected grams are the WEIGHT rows
 * of each food, written out here (seq: amount description = grams).
 */
const grams = async (line: string) => {
  const item = await analyzeLine(line);
  return { status: item.status, reason: item.reason, food: item.food?.foodNumber, grams: item.grams, portion: item.portion?.description ?? null, quantity: item.quantity, unit: item.unit };
};

describe("mass converts exactly", () => {
  test.each([
    ["100 g butter", 100],
    ["1 kg flour", 1000],
    ["500 mg salt", 0.5],
    ["1 oz cheddar cheese", 28.3],
    ["2 ounces cheddar cheese", 56.7],
    ["1 lb ground beef", 453.6],
    ["1.5 lbs ground beef", 680.4],
    ["1 pound carrots", 453.6],
  ])("%p is %p g, with no portion", async (line, expected) => {
    expect(await grams(line)).toMatchObject({ status: "matched", grams: expected, portion: null });
  });
});

describe("volume goes through the food's own portions", () => {
  test("a portion in the unit: 1 cup sugar is 'cup' (200 g), 2 tbsp olive oil 2 × 13.5 g", async () => {
    expect(await grams("1 cup sugar")).toMatchObject({ food: "19335", grams: 200, portion: "cup" });
    expect(await grams("2 tbsp olive oil")).toMatchObject({ food: "04053", grams: 27, portion: "tablespoon" });
  });
  test("the portion naming the line's preparation: chopped onion 160 g, sliced onion 115 g", async () => {
    expect(await grams("1 cup chopped onion")).toMatchObject({ food: "11282", grams: 160, portion: "cup, chopped" });
    expect(await grams("1 cup sliced onion")).toMatchObject({ food: "11282", grams: 115, portion: "cup, sliced" });
    expect(await grams("1 cup onion, sliced")).toMatchObject({ grams: 115, portion: "cup, sliced" });
    expect(await grams("1 cup shredded cheddar cheese")).toMatchObject({ food: "01009", grams: 113, portion: "cup, shredded" });
  });
  test("diced takes a chopped portion when the food has no diced one", async () => {
    expect(await grams("1 cup diced onion")).toMatchObject({ food: "11282", grams: 160, portion: "cup, chopped" });
    expect(await grams("1 tbsp diced onion")).toMatchObject({ grams: 10, portion: "tbsp chopped" });
  });
  test("without a preparation, the first portion naming none: heavy cream is 'cup, fluid', not 'cup, whipped'", async () => {
    expect(await grams("1 cup heavy cream")).toMatchObject({ food: "01053", grams: 238, portion: "cup, fluid (yields 2 cups whipped)" });
  });
  test("else the first of the unit: 1 cup brown sugar, whose cups are packed or unpacked", async () => {
    expect(await grams("1 cup brown sugar")).toMatchObject({ food: "19334", grams: 220, portion: "cup packed" });
  });
  test("per unit: a portion's grams divided by its amount (basil: 5 leaves = 2.5 g)", async () => {
    expect(await grams("10 leaves fresh basil")).toMatchObject({ food: "02044", grams: 5, portion: "leaves" });
  });
  test("without a portion in the unit, another volume portion scaled: 1 cup = 16 tbsp = 48 tsp = 236.5882 ml = 8 fl oz", async () => {
    // Lemon juice has a cup (244 g) but no spoon.
    expect(await grams("2 tbsp lemon juice")).toMatchObject({ food: "09152", grams: 30.5, portion: "cup" });
    expect(await grams("3 tsp lemon juice")).toMatchObject({ grams: 15.3, portion: "cup" });
    // Whole milk: cup 244 g (fl oz and tbsp and quart too).
    expect(await grams("1 pint whole milk")).toMatchObject({ food: "01077", grams: 488, portion: "cup" });
    expect(await grams("1 gallon whole milk")).toMatchObject({ grams: 3904, portion: "cup" });
    expect(await grams("1 quart whole milk")).toMatchObject({ grams: 976, portion: "quart" });
    expect(await grams("250 ml whole milk")).toMatchObject({ grams: 257.8, portion: "cup" });
    expect(await grams("1 l whole milk")).toMatchObject({ grams: 1031.3, portion: "cup" });
    expect(await grams("2 fl oz whole milk")).toMatchObject({ grams: 61, portion: "fl oz" });
    // Thyme's portions are teaspoons: a tablespoon is three.
    expect(await grams("1 tbsp fresh thyme")).toMatchObject({ food: "02049", grams: 2.4, portion: "tsp" });
  });
});

describe("named portions", () => {
  test.each([
    ["1 stick butter", "01001", 113, "stick"],
    ["2 cloves garlic", "11215", 6, "clove"],
    ["5 garlic cloves", "11215", 15, "clove"],
    ["2 pats butter", "01001", 10, "pat (1\" sq, 1/3\" high)"],
    ["2 slices white bread", "18069", 58, "slice"],
    ["2 stalks celery", "11143", 80, "stalk, medium (7-1/2\" - 8\" long)"],
    ["1 large stalk celery", "11143", 64, "stalk, large (11\"-12\" long)"],
    ["1 can tuna", "15121", 165, "can"],
    ["1 package frozen spinach", "11463", 284, "package (10 oz)"],
    ["1 leaf spinach", "11457", 10, "leaf"],
    ["2 ears corn", "11167", 204, "ear, medium (6-3/4\" to 7-1/2\" long) yields"],
  ])("%p: the food's portion of that name", async (line, food, expected, portion) => {
    expect(await grams(line)).toMatchObject({ status: "matched", food, grams: expected, portion });
  });
  test("a food without a portion of that name: unmatched, reason unit", async () => {
    expect(await grams("1 bay leaf")).toMatchObject({ status: "unmatched", reason: "unit", food: "02004", grams: 0 });
    expect(await grams("2 handfuls spinach")).toMatchObject({ status: "unmatched", reason: "unit", grams: 0 });
  });
});

describe("imprecise measures are amounts in a unit nothing converts: unmatched, reason unit, the food kept", () => {
  test.each([
    ["a handful of fresh basil leaves", "02044"],
    ["a handful of baby spinach leaves", "11457"],
    ["a pinch of salt", "02047"],
    ["a dash of Worcestershire sauce", "06971"],
    ["a splash of milk", "01077"],
    ["a knob of butter", "01001"],
    ["a sprinkle of grated parmesan", "01032"],
    ["a sprinkling of sugar", "19335"],
    ["a drizzle of olive oil", "04053"],
    ["a glug of olive oil", "04053"],
    ["a squeeze of honey", "19296"],
    ["a smidgen of cayenne pepper", "02031"],
    ["a dollop of sour cream", "01056"],
    ["1 large handful spinach", "11457"],
    ["2 large handfuls of spinach", "11457"],
    ["a big handful of rocket", "11959"],
    ["a small knob of butter", "01001"],
    ["a good glug of olive oil", "04053"],
    ["small handful fresh mint leaves", "02065"],
    ["handful of basil", "02044"],
  ])("%p counts no grams through another portion", async (line, food) => {
    expect(await grams(line)).toMatchObject({ status: "unmatched", reason: "unit", food, grams: 0 });
  });
  test("a few sprigs, with no amount, keep the food: reason quantity", async () => {
    expect(await grams("a few sprigs of thyme")).toMatchObject({ status: "unmatched", reason: "quantity", grams: 0 });
    expect((await analyzeLine("a few sprigs of thyme")).food?.name).toStartWith("Thyme");
    expect(await grams("a few basil leaves")).toMatchObject({ status: "unmatched", reason: "quantity", food: "02044", grams: 0 });
    expect(await grams("a little olive oil")).toMatchObject({ status: "unmatched", reason: "quantity", food: "04053", grams: 0 });
  });
});

describe("counts", () => {
  test("the portion of the size the line says", async () => {
    expect(await grams("2 large eggs")).toMatchObject({ food: "01123", grams: 100, portion: "large" });
    expect(await grams("1 small egg")).toMatchObject({ grams: 38, portion: "small" });
    expect(await grams("1 extra large egg")).toMatchObject({ grams: 56, portion: "extra large" });
    expect(await grams("2 jumbo eggs")).toMatchObject({ grams: 126, portion: "jumbo" });
    expect(await grams("1 large onion")).toMatchObject({ food: "11282", grams: 150, portion: "large" });
  });
  test("without a size, medium", async () => {
    expect(await grams("2 eggs")).toMatchObject({ food: "01123", grams: 88, portion: "medium" });
    expect(await grams("1 onion")).toMatchObject({ food: "11282", grams: 110, portion: "medium (2-1/2\" dia)" });
    expect(await grams("1 carrot")).toMatchObject({ food: "11124", grams: 61, portion: "medium" });
    expect(await grams("a dozen eggs")).toMatchObject({ grams: 528, quantity: 12 });
  });
  test("else a portion that is one of the thing itself", async () => {
    expect(await grams("1 avocado")).toMatchObject({ food: "09037", grams: 201, portion: "avocado, NS as to Florida or California" });
    expect(await grams("1 jalapeño")).toMatchObject({ food: "11979", grams: 14, portion: "pepper" });
    expect(await grams("1 lemon")).toMatchObject({ food: "09150", grams: 58, portion: "fruit (2-1/8\" dia)" });
  });
  test("the size asked for when the food has it, else medium", async () => {
    expect(await grams("1 large red bell pepper")).toMatchObject({ food: "11821", grams: 164 });
    expect(await grams("1 red bell pepper")).toMatchObject({ grams: 119 });
  });
});

describe("the parenthesised size sets the grams", () => {
  test("1 (14.5 oz) can diced tomatoes is 14.5 oz of canned tomatoes", async () => {
    expect(await grams("1 (14.5 oz) can diced tomatoes")).toMatchObject({ status: "matched", food: "11531", grams: 411.1, portion: null, quantity: 14.5, unit: "oz" });
  });
  test("two cans of 15 oz are 30 oz", async () => {
    expect(await grams("2 (15 ounce) cans black beans, drained")).toMatchObject({ status: "matched", grams: 850.5, quantity: 30, unit: "oz" });
  });
  test("a tin is a can: 1 tin chickpeas is the can's portion; 400 g tin chopped tomatoes is 400 g of canned tomatoes", async () => {
    expect(await grams("1 tin chickpeas, drained")).toMatchObject({ status: "matched", unit: "can" });
    expect((await analyzeLine("1 tin chickpeas, drained")).food?.name).toContain("canned");
    expect(await grams("400g tin chopped tomatoes")).toMatchObject({ status: "matched", food: "11531", grams: 400 });
    expect(await grams("2 x 400g tins chopped tomatoes")).toMatchObject({ status: "matched", food: "11531", grams: 800 });
  });
  test("a 7 g sachet of fast-action dried yeast is 7 g of yeast", async () => {
    expect(await grams("7g sachet fast-action dried yeast")).toMatchObject({ status: "matched", food: "18375", grams: 7 });
  });
  test("an 8 ounce package of cream cheese", async () => {
    expect(await grams("1 (8 ounce) package cream cheese, softened")).toMatchObject({ food: "01017", grams: 226.8 });
  });
});
