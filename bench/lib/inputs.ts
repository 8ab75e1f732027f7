import { openSr28Source } from "../../src/catalog/import/source";
import { SR28_DIR } from "../../test/helpers/paths";
import { MIX_QUERIES } from "./settings";

/** Inputs from SR28: the 1,000-query mix and the shuffled food numbers, the same in every run. */

export interface Food {
  number: string;
  group: string;
  name: string;
}

export function readFoods(): Food[] {
  const text = new TextDecoder("windows-1252").decode(openSr28Source(SR28_DIR).read("FOOD_DES.txt"));
  const foods: Food[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line) continue;
    const fields = line.split("^").map((field) => field.replace(/^~|~$/g, ""));
    if (fields[0] && fields[1] && fields[2]) foods.push({ number: fields[0], group: fields[1], name: fields[2] });
  }
  if (foods.length < 1000) throw new Error(`only ${foods.length} foods in FOOD_DES.txt of ${SR28_DIR}`);
  return foods;
}

/** mulberry32: a seeded generator, so every run sends the same queries in the same order. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STOP_WORDS = new Set(["and", "with", "without", "the", "for", "from", "not", "added", "all", "type", "other", "includes", "usda"]);

/** 1,000 distinct search paths: 1-2 words of one food's name, some with its group, some on page 2. */
export function mixPaths(foods: Food[]): string[] {
  const random = rng(28);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const paths = new Set<string>();
  for (let attempt = 0; paths.size < MIX_QUERIES && attempt < 200_000; attempt++) {
    const food = pick(foods);
    const words = [...new Set(food.name.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3 && !STOP_WORDS.has(w)))];
    if (!words.length) continue;
    const first = pick(words);
    const terms = [first];
    if (random() < 0.4 && words.length > 1) terms.push(pick(words.filter((w) => w !== first)));
    let path = `/v1/foods?q=${encodeURIComponent(terms.join(" "))}`;
    if (random() < 0.25) path += `&group=${food.group}`;
    if (random() < 0.2) path += "&page=2";
    paths.add(path);
  }
  if (paths.size < MIX_QUERIES) throw new Error(`could only build ${paths.size} distinct queries`);
  return [...paths];
}

/** NUT_DATA.txt: each nutrient's value per 100 g by food number. */
export function readNutrientValues(): Map<string, Map<string, number>> {
  const text = new TextDecoder("windows-1252").decode(openSr28Source(SR28_DIR).read("NUT_DATA.txt"));
  const byNutrient = new Map<string, Map<string, number>>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^~(\d{5})~\^~(\d{3})~\^([0-9.]+)\^/.exec(line);
    if (!match) continue;
    let values = byNutrient.get(match[2]!);
    if (!values) byNutrient.set(match[2]!, (values = new Map()));
    values.set(match[1]!, Number(match[3]!));
  }
  return byNutrient;
}

/**
 * 1,000 distinct searches sorted or filtered by nutrients, each built around one food so that it matches
 * at least that food (as the name mix takes its words from a food's name): a sort by one of the nutrients
 * most foods have (either order, or the default), 1-3 range filters on nutrients that food has, with bounds
 * drawn from the nutrient's values on either side of the food's own, often a word of its name, sometimes its
 * group or page 2.
 */
export function nutrientMixPaths(foods: Food[], values: Map<string, Map<string, number>>): string[] {
  const random = rng(203);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  // The nutrients with a value for at least a quarter of the foods: what people sort and filter by.
  const common = [...values].filter(([, byFood]) => byFood.size >= foods.length / 4).map(([number]) => number);
  const sorted = new Map(common.map((number) => [number, [...values.get(number)!.values()].sort((a, b) => a - b)]));
  const paths = new Set<string>();
  for (let attempt = 0; paths.size < MIX_QUERIES && attempt < 200_000; attempt++) {
    const food = pick(foods);
    const params: string[] = [];
    const sortedBy = random() < 0.7;
    if (sortedBy) {
      params.push(`sort=nutrient.${pick(common)}`);
      if (random() < 0.6) params.push(`order=${random() < 0.5 ? "asc" : "desc"}`);
    }
    const own = common.filter((number) => values.get(number)!.has(food.number));
    const filters = sortedBy && random() < 0.4 ? 0 : 1 + Math.floor(random() * 3);
    for (const number of new Set(Array.from({ length: Math.min(filters, own.length) }, () => pick(own)))) {
      const value = values.get(number)!.get(food.number)!;
      const all = sorted.get(number)!;
      const below = pick(all.filter((v) => v <= value));
      const above = pick(all.filter((v) => v >= value));
      const shape = random();
      params.push(`nutrient.${number}=${shape < 0.4 ? `${below}..` : shape < 0.7 ? `..${above}` : `${below}..${above}`}`);
    }
    if (!params.some((p) => p.startsWith("nutrient.") || p.startsWith("sort="))) continue;
    if (random() < 0.5) {
      const words = food.name.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
      if (words.length) params.unshift(`q=${encodeURIComponent(pick(words))}`);
    }
    if (random() < 0.2) params.push(`group=${food.group}`);
    if (random() < 0.2) params.push("page=2");
    paths.add(`/v1/foods?${params.join("&")}`);
  }
  if (paths.size < MIX_QUERIES) throw new Error(`could only build ${paths.size} distinct nutrient queries`);
  return [...paths];
}

export function shuffled<T>(xs: T[], seed: number): T[] {
  const random = rng(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Every food's number in the bench's fixed shuffled order: the order random details are asked in. */
export function shuffledFoodNumbers(foods: Food[]): string[] {
  return shuffled(foods.map((f) => f.number), 2016);
}
