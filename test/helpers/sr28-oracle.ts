import { sr28File } from "./sr28-files";

/**
 * An independent reading of FOOD_DES.txt for expected search results: latin1 decoding and a regex per
 * line, sharing no code with the importer or the search route.
 */
export interface OracleFood {
  foodNumber: string;
  group: string;
  name: string;
}

let cache: OracleFood[] | undefined;

export function oracleFoods(): OracleFood[] {
  cache ??= sr28File("FOOD_DES.txt").toString("latin1")
    .split(/\r?\n/)
    .filter((line) => line.length > 0)
    .map((line) => {
      const match = /^~(\d{5})~\^~(\d{4})~\^~([^~]*)~/.exec(line);
      if (!match) throw new Error(`oracle cannot read: ${line.slice(0, 60)}`);
      return { foodNumber: match[1]!, group: match[2]!, name: match[3]! };
    });
  return cache;
}

/** Foods whose name contains every whitespace-separated term, ignoring case (SR28 names are ASCII). */
export function oracleMatches(q: string, group?: string): OracleFood[] {
  const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
  return oracleFoods().filter(
    (food) => (group === undefined || food.group === group) && terms.every((term) => food.name.toLowerCase().includes(term)),
  );
}

/**
 * Nutrient values and portions as SR28's NUT_DATA, NUTR_DEF and WEIGHT files have them, read with a regex
 * per line: the values as the file's own decimal text, for an exact expected amount per portion.
 */
export interface OracleNutrientValue {
  nutrientNumber: string;
  /** Nutr_Val as written in the file (`0.850`). */
  text: string;
  /** NUTR_DEF's Num_Dec for that nutrient. */
  decimals: number;
}

export interface OraclePortion {
  seq: number;
  /** Gm_Wgt as written (`14.2`). */
  gramsText: string;
}

let decimalsCache: Map<string, number> | undefined;
function oracleDecimals(): Map<string, number> {
  decimalsCache ??= new Map(
    lines("NUTR_DEF.txt").map((line) => {
      const match = /^~(\d{3})~\^~[^~]*~\^(?:~[^~]*~)?\^~[^~]*~\^~(\d+)~\^/.exec(line);
      if (!match) throw new Error(`oracle cannot read NUTR_DEF: ${line.slice(0, 60)}`);
      return [match[1]!, Number(match[2])];
    }),
  );
  return decimalsCache;
}

export function oracleFoodValues(foodNumber: string): OracleNutrientValue[] {
  const decimals = oracleDecimals();
  return lines("NUT_DATA.txt")
    .filter((line) => line.startsWith(`~${foodNumber}~`))
    .map((line) => {
      const match = /^~\d{5}~\^~(\d{3})~\^([\d.]+)\^/.exec(line);
      if (!match) throw new Error(`oracle cannot read NUT_DATA: ${line.slice(0, 60)}`);
      return { nutrientNumber: match[1]!, text: match[2]!, decimals: decimals.get(match[1]!)! };
    });
}

export function oraclePortions(foodNumber: string): OraclePortion[] {
  return lines("WEIGHT.txt")
    .filter((line) => line.startsWith(`~${foodNumber}~`))
    .map((line) => {
      const match = /^~\d{5}~\^(\d+)\^[\d.]+\^~[^~]*~\^([\d.]+)\^/.exec(line);
      if (!match) throw new Error(`oracle cannot read WEIGHT: ${line.slice(0, 60)}`);
      return { seq: Number(match[1]), gramsText: match[2]! };
    });
}

/**
 * value × grams / 100 rounded half up to `decimals`, by long arithmetic on the decimal digit strings (no
 * floating point, and not the service's method): the expected amount, as its decimal text.
 */
export function oracleScaled(valueText: string, gramsText: string, decimals: number): string {
  const split = (text: string) => {
    const [whole, fraction = ""] = text.split(".");
    return { digits: `${whole}${fraction}`.replace(/^0+(?=\d)/, ""), places: fraction.length };
  };
  const v = split(valueText);
  const g = split(gramsText);
  // Schoolbook multiplication of two digit strings.
  const product = Array<number>(v.digits.length + g.digits.length).fill(0);
  for (let i = v.digits.length - 1; i >= 0; i--) {
    for (let j = g.digits.length - 1; j >= 0; j--) {
      const at = i + j + 1;
      const sum = product[at]! + Number(v.digits[i]) * Number(g.digits[j]);
      product[at] = sum % 10;
      product[at - 1]! += Math.floor(sum / 10);
    }
  }
  let digits = product.join("").replace(/^0+(?=\d)/, "");
  let places = v.places + g.places + 2; // / 100
  // Round to `decimals` places: drop the extra digits, adding one when the first dropped is 5 or more.
  if (places > decimals) {
    digits = digits.padStart(places + 1, "0");
    const cut = digits.length - (places - decimals);
    const roundUp = Number(digits[cut]) >= 5;
    digits = digits.slice(0, cut);
    if (roundUp) digits = (BigInt(digits) + 1n).toString().padStart(digits.length, "0");
    places = decimals;
  }
  digits = digits.padStart(places + 1, "0");
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

function lines(file: string): string[] {
  return sr28File(file).toString("latin1").split(/\r?\n/).filter((line) => line.length > 0);
}

/** NUT_DATA.txt read the same independent way: nutrient number → food number → value per 100 g. */
let valuesCache: Map<string, Map<string, number>> | undefined;

export function oracleNutrientValues(): Map<string, Map<string, number>> {
  if (!valuesCache) {
    valuesCache = new Map();
    for (const line of sr28File("NUT_DATA.txt").toString("latin1").split(/\r?\n/)) {
      if (line.length === 0) continue;
      const match = /^~(\d{5})~\^~(\d{3})~\^([0-9.]+)\^/.exec(line);
      if (!match) throw new Error(`oracle cannot read: ${line.slice(0, 60)}`);
      let byFood = valuesCache.get(match[2]!);
      if (!byFood) valuesCache.set(match[2]!, (byFood = new Map()));
      byFood.set(match[1]!, Number(match[3]!));
    }
  }
  return valuesCache;
}

/** NUTR_DEF.txt: nutrient number → unit. */
export function oracleNutrientUnits(): Map<string, string> {
  return new Map(
    sr28File("NUTR_DEF.txt").toString("latin1").split(/\r?\n/).filter(Boolean).map((line) => {
      const match = /^~(\d{3})~\^~([^~]*)~/.exec(line);
      if (!match) throw new Error(`oracle cannot read: ${line.slice(0, 60)}`);
      return [match[1]!, match[2]!] as const;
    }),
  );
}
