import { describe, expect, test } from "bun:test";
import { DEFAULT_FOODS } from "../../src/analysis/default-foods";
import { suggestFoods } from "../../src/analysis/service";
import { analyzeLine, catalogAnalysis } from "./catalog-analysis";

/** Which SR28 food a line names (decisions §16), and the suggestions as a person types. */
const food = async (line: string) => {
  const item = await analyzeLine(line);
  return { status: item.status, reason: item.reason, foodNumber: item.food?.foodNumber ?? null, name: item.food?.name ?? null };
};

describe("raw and plain forms first", () => {
  test("onion is Onions, raw, never Onion rings", async () => {
    for (const line of ["1 onion", "1 cup chopped onion", "2 onions", "1 large yellow onion"]) {
      expect(await food(line)).toMatchObject({ status: "matched", foodNumber: "11282", name: "Onions, raw" });
    }
  });
  test("sugar is Sugars, granulated", async () => {
    expect(await food("1 cup sugar")).toMatchObject({ foodNumber: "19335", name: "Sugars, granulated" });
    expect(await food("1 cup sugars")).toMatchObject({ foodNumber: "19335" });
    expect(await food("1/2 cup white sugar")).toMatchObject({ foodNumber: "19335" });
  });
  test("butter is plain butter, never peanut butter", async () => {
    expect(await food("2 tbsp butter")).toMatchObject({ foodNumber: "01001", name: "Butter, salted" });
    expect(await food("2 tbsp unsalted butter")).toMatchObject({ foodNumber: "01145", name: "Butter, without salt" });
    expect(await food("1/2 cup butter, softened")).toMatchObject({ foodNumber: "01001" });
  });
  test("a line with more words takes the food that has them", async () => {
    expect((await food("2 tbsp peanut butter")).name).toStartWith("Peanut butter");
    expect(await food("1 cup brown sugar")).toMatchObject({ foodNumber: "19334", name: "Sugars, brown" });
    expect(await food("1 cup powdered sugar")).toMatchObject({ foodNumber: "19336", name: "Sugars, powdered" });
  });
  test("everyday foods", async () => {
    const expected: [string, string][] = [
      ["3 cloves garlic, minced", "11215"],
      ["2 large eggs", "01123"],
      ["1 cup milk", "01077"],
      ["2 cups all-purpose flour", "20081"],
      ["1 tsp baking soda", "18372"],
      ["1 tsp salt", "02047"],
      ["1 tsp kosher salt", "02047"],
      ["1/2 tsp freshly ground black pepper", "02030"],
      ["2 tbsp olive oil", "04053"],
      ["1 cup heavy cream", "01053"],
      ["1 medium carrot, diced", "11124"],
      ["2 stalks celery, chopped", "11143"],
      ["1 cup shredded cheddar cheese", "01009"],
      ["3 green onions, sliced", "11291"],
      ["1/4 cup ketchup", "11935"],
      ["1 tsp vanilla extract", "02050"],
      ["1 cup frozen peas", "11312"],
    ];
    for (const [line, foodNumber] of expected) expect([line, (await food(line)).foodNumber]).toEqual([line, foodNumber]);
  });
});

describe("British and international names are SR28's foods", () => {
  test.each([
    ["250 g plain flour", "20081"],
    ["1 tbsp plain flour", "20081"],
    ["200 g self-raising flour", "20082"],
    ["250 g wholemeal flour", "20080"],
    ["100 g caster sugar", "19335"],
    ["50 g icing sugar", "19336"],
    ["100 g demerara sugar", "19334"],
    ["100 g light muscovado sugar", "19334"],
    ["300 ml double cream", "01053"],
    ["150 ml single cream", "01050"],
    ["500 g beef mince", "23572"],
    ["500 g minced beef", "23572"],
    ["4 spring onions, sliced", "11291"],
    ["3 scallions, sliced", "11291"],
    ["1 courgette, diced", "11477"],
    ["1 aubergine, cubed", "11209"],
    ["2 tbsp chopped coriander", "11165"],
    ["1 tsp ground coriander", "02013"],
    ["1 tsp coriander seeds", "02013"],
    ["100 g rocket", "11959"],
    ["200 g raw prawns", "15270"],
    ["1 tsp bicarbonate of soda", "18372"],
    ["2 tbsp golden syrup", "19362"],
    ["2 tbsp ghee", "01003"],
    ["2 tbsp clarified butter", "01003"],
    ["2 tbsp tomato purée", "11546"],
    ["1 tin chickpeas", "16058"],
    ["1 cup garbanzo beans", "16056"],
    ["1 red bell pepper", "11821"],
    ["1 red capsicum, sliced", "11821"],
    ["1 green capsicum", "11333"],
    ["150 g natural yoghurt", "01116"],
    ["300 ml semi-skimmed milk", "01079"],
    ["300 ml skimmed milk", "01085"],
    ["1 red chilli, finely chopped", "11819"],
    ["1 tsp chilli flakes", "02031"],
    ["100 g sultanas", "09297"],
    ["200 g sweetcorn", "11167"],
    ["2 tbsp rapeseed oil", "04582"],
    ["2 tbsp groundnut oil", "04042"],
    ["1 swede", "11435"],
    ["2 beetroot", "11080"],
    ["100 g mangetout", "11300"],
    ["200 g broad beans", "11088"],
    ["250 g chestnut mushrooms", "11266"],
    ["1 tbsp black treacle", "19304"],
    ["4 rashers streaky bacon", "10123"],
    ["500 ml vegetable stock", "06700"],
    ["1 litre vegetable stock", "06700"],
    ["1 tsp sea salt flakes", "02047"],
    ["1 tsp vanilla essence", "02050"],
    ["100 g ground almonds", "12061"],
    ["2 medium free-range eggs", "01123"],
    ["500 g new potatoes", "11352"],
    ["75 g porridge oats", "20038"],
    ["200 g basmati rice", "20044"],
    ["200 g jasmine rice", "20044"],
    ["300 g arborio rice", "20050"],
    ["100 g beansprouts", "11043"],
    ["1 cup bean sprouts", "11043"],
    ["400 g passata", "11547"],
    ["2 tbsp pomegranate seeds", "09286"],
    ["1 tbsp neutral oil", "04044"],
  ])("%p", async (line, foodNumber) => {
    expect(await food(line)).toMatchObject({ status: "matched", foodNumber });
  });
  test("in a unit SR28 cannot weigh them in, still the food: fresh coriander by the bunch, rocket by the handful, king prawns by the piece", async () => {
    expect(await food("a small bunch of fresh coriander")).toMatchObject({ reason: "unit", foodNumber: "11165" });
    expect(await food("2 handfuls of rocket leaves")).toMatchObject({ reason: "unit", foodNumber: "11959" });
    expect(await food("12 king prawns")).toMatchObject({ foodNumber: "15270" });
    expect(await food("1 tin sweetcorn")).toMatchObject({ status: "matched", foodNumber: "11172" });
    expect(await food("a few drops of vanilla extract")).toMatchObject({ reason: "quantity", foodNumber: "02050" });
  });
  test("a word that narrows no food of the name is no reason to leave the bare name's food: new potatoes are potatoes, brown rice stays brown", async () => {
    expect((await food("1 cup brown rice")).name).toStartWith("Rice, brown");
    expect((await food("1 cup wild rice")).name).toStartWith("Wild rice");
  });
  test("dried pulses are SR28's raw mature seeds", async () => {
    expect(await food("200 g dried red lentils")).toMatchObject({ status: "matched", foodNumber: "16144" });
    expect(await food("1 cup dried black beans")).toMatchObject({ status: "matched", foodNumber: "16014" });
    expect(await food("250 g dried chickpeas")).toMatchObject({ status: "matched", foodNumber: "16056" });
  });
  test("US tomato puree stays puree; bare coriander by the spoon stays the spice", async () => {
    expect((await food("1 cup tomato puree")).name).toContain("puree");
    expect(await food("1 tsp coriander")).toMatchObject({ foodNumber: "02013" });
  });
});

describe("ground spices SR28 names by their seed or without 'ground'", () => {
  test.each([
    ["1 tsp ground cumin", "02014"],
    ["1 tsp cumin seeds", "02014"],
    ["1 tsp ground coriander", "02013"],
    ["1 tsp ground cardamom", "02006"],
    ["1 tsp ground fennel", "02018"],
    ["1 tsp ground fenugreek", "02019"],
    ["1 tsp ground mustard", "02024"],
    ["1 tsp smoked paprika", "02028"],
    ["1 tsp sweet paprika", "02028"],
    ["1 tsp ground caraway", "02005"],
    ["1 tsp ground celery seed", "02007"],
    ["1 tsp ground anise", "02002"],
    ["1/2 tsp ground white pepper", "02032"],
    ["2 tsp cumin powder", "02014"],
    ["1 tsp turmeric powder", "02043"],
    ["1 tsp coriander powder", "02013"],
    ["1 tsp ginger powder", "02021"],
    ["1 tsp mustard powder", "02024"],
    ["1 tsp fennel powder", "02018"],
    ["1 tsp dry mustard", "02024"],
    ["1 tsp dried chilli flakes", "02031"],
  ])("%p", async (line, foodNumber) => {
    expect(await food(line)).toMatchObject({ status: "matched", foodNumber });
  });
  test("powders SR28 names as such stay those foods", async () => {
    for (const [line, foodNumber] of [["1 tsp garlic powder", "02020"], ["1 tsp onion powder", "02026"], ["1 tbsp curry powder", "02015"], ["1 tsp chili powder", "02009"], ["2 tsp baking powder", "18369"]]) {
      expect([line, (await food(line!)).foodNumber]).toEqual([line, foodNumber]);
    }
    expect((await food("1/4 cup milk powder")).name).toStartWith("Milk, dry");
  });
  test("whole cloves are cloves, not a clove of something whole", async () => {
    expect(await food("2 whole cloves")).toMatchObject({ foodNumber: "02011" });
  });
});

describe("a misspelt bare name is the bare name's food", () => {
  test("mozarella is the default mozzarella, zuchini the default zucchini", async () => {
    expect(await food("1 cup shredded mozarella")).toMatchObject({ status: "matched", foodNumber: "01026" });
    expect(await food("1 zuchini")).toMatchObject({ status: "matched", foodNumber: "11477" });
  });
});

describe("words are matched singular and plural alike, ignoring case and diacritics", () => {
  test("tomatoes and tomato, TOMATOES", async () => {
    const one = await food("1 tomato");
    expect(one.name).toStartWith("Tomatoes, red, ripe, raw");
    expect((await food("2 tomatoes")).foodNumber).toBe(one.foodNumber);
    expect((await food("2 TOMATOES")).foodNumber).toBe(one.foodNumber);
  });
  test("jalapeño is Peppers, jalapeno", async () => {
    expect(await food("1 jalapeño")).toMatchObject({ foodNumber: "11979", name: "Peppers, jalapeno, raw" });
    expect(await food("1 JALAPENO")).toMatchObject({ foodNumber: "11979" });
  });
});

describe("a state the line names must be in the food's name", () => {
  test.each([
    ["2 cups cooked rice", "cooked"],
    ["1 cup frozen peas", "frozen"],
    ["1 cup frozen corn", "frozen"],
    ["1 (15 oz) can black beans", "canned"],
    ["1 cup canned pumpkin", "canned"],
    ["1/2 cup dried cranberries", "dried"],
    ["1 tsp dried oregano", "dried"],
    ["2 boiled potatoes", "boiled"],
    ["1 lb ground beef", "ground"],
    ["1 lb ground turkey", "ground"],
    ["1 tsp ground cinnamon", "ground"],
  ])("%p is a food whose name says %p", async (line, state) => {
    const { status, name } = await food(line);
    expect(status).toBe("matched");
    expect(name!.toLowerCase()).toContain(state);
  });
  test("ground spices that SR28 names without the word: any spice", async () => {
    expect(await food("1/2 tsp ground black pepper")).toMatchObject({ foodNumber: "02030" });
  });
  test("without a state, the raw form: peas are raw, not frozen or canned", async () => {
    expect((await food("1 cup peas")).name).toContain("raw");
    expect((await food("1 cup spinach")).name).toBe("Spinach, raw");
  });
});

describe("a line that is not food is unmatched for its food, not the nearest string", () => {
  test.each(["1 cup unicorn tears", "2 cups xanthan gum", "1 cup dragon scales", "3 tbsp qwertyuiop", "2 cups ice"])("%p", async (line) => {
    expect(await food(line)).toEqual({ status: "unmatched", reason: "food", foodNumber: null, name: null });
  });
  test("a line without an amount keeps its food: salt and pepper to taste is Salt, table, reason quantity", async () => {
    const item = await analyzeLine("salt and pepper to taste");
    expect(item).toMatchObject({ status: "unmatched", reason: "quantity", food: { foodNumber: "02047", name: "Salt, table" }, grams: 0 });
  });
});

describe("#<foodNumber> forces the food", () => {
  test("1 cup chopped onion #11291 is scallions, with their own cup", async () => {
    const item = await analyzeLine("1 cup chopped onion #11291");
    expect(item).toMatchObject({ status: "matched", food: { foodNumber: "11291" }, confidence: 1, grams: 100, portion: { description: "cup, chopped" } });
  });
  test("an unknown number forces nothing", async () => {
    expect(await food("1 cup chopped onion #99999")).toMatchObject({ foodNumber: "11282" });
  });
});

describe("alternatives", () => {
  test("up to three, best first, none the food itself", async () => {
    const item = await analyzeLine("1 cup chopped onion");
    expect(item.alternatives.length).toBeGreaterThan(0);
    expect(item.alternatives.length).toBeLessThanOrEqual(3);
    expect(item.alternatives.map((a) => a.foodNumber)).not.toContain("11282");
    for (const a of item.alternatives) expect(a.name.toLowerCase()).toContain("onion");
  });
});

describe("GET /v1/foods/suggest's names, as a person types", () => {
  const suggest = async (q: string, limit = 10) => suggestFoods((await catalogAnalysis()).analysis, q, limit).items;
  test("typo-tolerant: chedar finds Cheese, cheddar, brocoli Broccoli, raw, first", async () => {
    expect((await suggest("chedar"))[0]).toEqual({ foodNumber: "01009", name: "Cheese, cheddar" });
    expect((await suggest("brocoli"))[0]).toEqual({ foodNumber: "11090", name: "Broccoli, raw" });
  });
  test("a typo's suggestions rank names whose words are nearer what was typed first: no caesar dressing among the cheddars", async () => {
    const names = (await suggest("chedar", 5)).map((i) => i.name);
    expect(names.every((name) => name.toLowerCase().includes("cheddar"))).toBe(true);
    expect((await suggest("spinich", 3)).map((i) => i.name).filter((name) => name.toLowerCase().includes("spanish"))).toEqual([]);
    expect((await suggest("mozarella"))[0]!.name).toStartWith("Cheese, mozzarella");
  });
  test("the word being typed is a prefix: 'brocc', 'chedd'", async () => {
    expect((await suggest("brocc"))[0]!.name).toBe("Broccoli, raw");
    expect((await suggest("chedd"))[0]!.name).toBe("Cheese, cheddar");
  });
  test("raw and plain forms first", async () => {
    expect((await suggest("onion"))[0]!.name).toBe("Onions, raw");
    expect((await suggest("butter"))[0]!.name).toStartWith("Butter,");
  });
  test("at most `limit` items, each once", async () => {
    const items = await suggest("cheese", 20);
    expect(items.length).toBe(20);
    expect(new Set(items.map((i) => i.foodNumber)).size).toBe(20);
    expect((await suggest("cheese", 3)).length).toBe(3);
  });
  test("nothing like it: no items", async () => {
    expect(await suggest("zzzzqqqq")).toEqual([]);
  });
});

describe("the defaults for bare names", () => {
  test("each default is a food of the catalog, named by the key's last word and with the key's states", async () => {
    const { analysis } = await catalogAnalysis();
    for (const [key, foodNumber] of Object.entries(DEFAULT_FOODS)) {
      const position = analysis.index.positionOf.get(foodNumber);
      expect([key, position === undefined]).toEqual([key, false]);
    }
  });
});

describe("what a name says the food lacks is not the food's", () => {
  test("'without salt' does not make a food salt; unsalted butter is still butter without salt", async () => {
    const { analysis } = await catalogAnalysis();
    const butter = analysis.index.foods[analysis.index.positionOf.get("01145")!]!;
    expect(butter.traits.words).toContain("-salt");
    expect(butter.traits.words).not.toContain("salt");
    expect(await food("1 tbsp unsalted butter")).toMatchObject({ foodNumber: "01145" });
    expect(await food("1 tsp salt")).toMatchObject({ foodNumber: "02047" });
  });
});
