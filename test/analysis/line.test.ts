import { describe, expect, test } from "bun:test";
import { parseLines } from "../../src/analysis/line";

/**
 * Reading a line (decisions §16): quantities in every form a cook writes them, units, the parenthesised size,
 * preparation words, states and `#<foodNumber>`, without any food: the parser alone.
 */
const read = (line: string) => parseLines([line], (phrase) => phrase === "half and half")[0]!;
const quantityOf = (line: string) => read(line).quantity;

describe("quantities", () => {
  test.each([
    ["2 cups flour", 2],
    ["1.5 cups flour", 1.5],
    [".5 cup water", 0.5],
    ["1/2 cup sugar", 0.5],
    ["1 1/2 cups water", 1.5],
    ["½ cup sugar", 0.5],
    ["1½ cups flour", 1.5],
    ["1 ⅓ cup milk", 4 / 3],
    ["¾ tsp salt", 0.75],
  ])("%p is %p", (line, expected) => {
    expect(quantityOf(line)).toBeCloseTo(expected, 10);
  });

  test.each([
    ["2-3 cloves garlic", 2.5],
    ["2 to 3 cloves garlic", 2.5],
    ["2–3 cups water", 2.5],
    ["1 or 2 eggs", 1.5],
  ])("a range %p is its midpoint, %p", (line, expected) => {
    expect(quantityOf(line)).toBe(expected);
  });

  test.each([
    ["a dozen eggs", 12],
    ["one dozen eggs", 12],
    ["two dozen eggs", 24],
    ["half a dozen eggs", 6],
    ["1 dozen eggs", 12],
    ["a pinch of salt", 1],
    ["an onion", 1],
    ["one egg", 1],
    ["two large eggs", 2],
    ["three cloves garlic", 3],
    ["twelve eggs", 12],
    ["half a cup of milk", 0.5],
    ["half cup milk", 0.5],
    ["one and a half cups flour", 1.5],
    ["a couple of eggs", 2],
  ])("number words: %p is %p", (line, expected) => {
    expect(quantityOf(line)).toBe(expected);
  });

  test.each(["salt and pepper to taste", "fresh parsley, for garnish", "a few sprigs thyme", "cooking spray"])("%p gives no amount", (line) => {
    expect(read(line)).toMatchObject({ quantity: null, quantityProblem: "none" });
  });

  test.each(["1/0 cup flour", "1e309 g sugar", "-2 cups sugar", "2-1 eggs", "3-2 cups milk"])("%p gives an amount that is none", (line) => {
    expect(read(line)).toMatchObject({ quantity: null, quantityProblem: "invalid" });
  });

  test("zero is no amount", () => {
    expect(read("0 cups sugar")).toMatchObject({ quantity: null, quantityProblem: "none" });
  });
});

describe("units", () => {
  test.each([
    ["1 g sugar", "g"], ["2 grams sugar", "g"], ["1 kg flour", "kg"], ["3 kilograms flour", "kg"], ["5 mg salt", "mg"],
    ["1 oz cheese", "oz"], ["2 ounces cheese", "oz"], ["1 oz. cheese", "oz"], ["1 lb beef", "lb"], ["2 lbs beef", "lb"],
    ["1 lb. beef", "lb"], ["1 pound beef", "lb"], ["2 Pounds beef", "lb"],
    ["1 cup milk", "cup"], ["2 cups milk", "cup"], ["1 CUP milk", "cup"], ["1 c milk", "cup"], ["1 c. milk", "cup"],
    ["1 tbsp oil", "tbsp"], ["1 Tbsp. oil", "tbsp"], ["2 tablespoons oil", "tbsp"], ["1 T oil", "tbsp"], ["1 TBSP oil", "tbsp"],
    ["1 tsp salt", "tsp"], ["2 teaspoons salt", "tsp"], ["1 t salt", "tsp"], ["1 tsp. salt", "tsp"],
    ["100 ml milk", "ml"], ["2 milliliters milk", "ml"], ["1 l milk", "l"], ["1 liter milk", "l"], ["2 liters milk", "l"],
    ["2 fl oz cream", "fl oz"], ["1 fl. oz. cream", "fl oz"], ["1 fluid ounce cream", "fl oz"],
    ["1 pint cream", "pint"], ["2 quarts water", "quart"], ["1 gallon milk", "gallon"],
    ["1 stick butter", "stick"], ["2 cloves garlic", "clove"], ["2 slices bread", "slice"], ["1 can beans", "can"],
    ["1 package yeast", "package"], ["2 pats butter", "pat"], ["2 sprigs thyme", "sprig"], ["3 leaves basil", "leaf"],
    ["2 stalks celery", "stalk"], ["1 rib celery", "stalk"],
  ])("%p is in %p", (line, unit) => {
    expect(read(line).unit).toBe(unit as never);
  });

  test("a unit word after the food is the unit: 5 garlic cloves, 2 celery stalks", () => {
    expect(read("5 garlic cloves")).toMatchObject({ unit: "clove", foodWords: ["garlic"] });
    expect(read("2 celery stalks")).toMatchObject({ unit: "stalk", foodWords: ["celery"] });
  });

  test("a count has no unit, and a size word picks its portion", () => {
    expect(read("2 eggs")).toMatchObject({ unit: null, sizeWord: null });
    expect(read("2 large eggs")).toMatchObject({ unit: null, sizeWord: "large" });
    expect(read("1 extra large egg")).toMatchObject({ unit: null, sizeWord: "extra large" });
    expect(read("2 jumbo eggs")).toMatchObject({ unit: null, sizeWord: "jumbo" });
    expect(read("1 small onion")).toMatchObject({ unit: null, sizeWord: "small" });
  });

  test("a unit no food's portions can give grams for is kept as written", () => {
    expect(read("2 inches ginger")).toMatchObject({ unit: null, unknownUnit: "inch" });
  });
});

describe("the parenthesised size before a container", () => {
  test("1 (14.5 oz) can diced tomatoes is a can of 14.5 oz", () => {
    expect(read("1 (14.5 oz) can diced tomatoes")).toMatchObject({ quantity: 1, unit: "can", size: { quantity: 14.5, unit: "oz" }, foodWords: ["tomato"] });
  });
  test("other spellings: (15-ounce) cans, a can (15 oz), (12 fl oz) bottle", () => {
    expect(read("2 (15-ounce) cans black beans")).toMatchObject({ quantity: 2, unit: "can", size: { quantity: 15, unit: "oz" } });
    expect(read("1 can (15 oz) black beans")).toMatchObject({ quantity: 1, unit: "can", size: { quantity: 15, unit: "oz" } });
    expect(read("1 (12 fl oz) bottle beer")).toMatchObject({ unit: "bottle", size: { quantity: 12, unit: "fl oz" } });
  });
  test("a parenthesis that is no size is a note", () => {
    expect(read("1 cup walnuts (optional)")).toMatchObject({ size: null, foodWords: ["walnut"] });
  });
});

describe("the words about the food", () => {
  test("preparation words are read, not matched", () => {
    expect(read("1 cup chopped onion")).toMatchObject({ preparations: ["chopped"], foodWords: ["onion"] });
    expect(read("1 cup onion, diced")).toMatchObject({ preparations: ["diced"], foodWords: ["onion"] });
    expect(read("2 cups shredded cheddar cheese")).toMatchObject({ preparations: ["shredded"], foodWords: ["cheddar", "cheese"] });
  });
  test("noise is dropped: fresh, minced, melted, sifted, to taste, divided, for garnish", () => {
    expect(read("2 tbsp fresh parsley, minced, divided, for garnish").foodWords).toEqual(["parsley"]);
    expect(read("1/2 cup butter, melted").foodWords).toEqual(["butter"]);
    expect(read("2 cups flour, sifted").foodWords).toEqual(["flour"]);
  });
  test("states the name must have are read apart", () => {
    expect(read("2 cups cooked rice")).toMatchObject({ states: ["cooked"], foodWords: ["rice"] });
    expect(read("1 cup frozen peas")).toMatchObject({ states: ["frozen"], foodWords: ["pea"] });
    expect(read("1 lb ground beef")).toMatchObject({ states: ["ground"], foodWords: ["beef"] });
    expect(read("1 cup rice, cooked")).toMatchObject({ states: ["cooked"] });
    // Pepper is ground as it is bought: no state.
    expect(read("1/2 tsp freshly ground black pepper").states).toEqual([]);
  });
  test("plurals and diacritics are folded", () => {
    expect(read("2 tomatoes").foodWords).toEqual(["tomato"]);
    expect(read("1 Jalapeño").foodWords).toEqual(["jalapeno"]);
    expect(read("3 TOMATOES").foodWords).toEqual(["tomato"]);
  });
  test("alternatives: the first; two foods joined by and: the first, unless SR28 names the pair", () => {
    expect(read("1/2 cup butter or margarine").foodWords).toEqual(["butter"]);
    expect(read("salt and pepper to taste").foodWords).toEqual(["salt"]);
    expect(read("1 cup half and half").foodWords).toEqual(["half", "and", "half"]);
  });
  test("#<foodNumber> forces a food and is no word of it", () => {
    expect(read("1 cup chopped onion #11291")).toMatchObject({ forcedFoodNumber: "11291", foodWords: ["onion"], quantity: 1, unit: "cup" });
  });
  test("control and bidirectional characters make a line unreadable; invisible ones are dropped", () => {
    expect(read("1 cup sugar\u0000").unreadable).toBe(true);
    expect(read("1 cup \u202esugar").unreadable).toBe(true);
    expect(read("1 cup su\u200bgar")).toMatchObject({ unreadable: false, foodWords: ["sugar"] });
  });
});
