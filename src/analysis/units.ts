import type { UnitOfMeasureDefinitions } from "parse-ingredient";

/**
 * The units a line may give its amount in (decisions §16), by the canonical name the answer reports. Mass
 * converts exactly; volume goes through the food's own portions (grams.ts), scaled between volume units
 * by the factors here when the food has no portion in the line's unit; a named unit is one of the food's
 * portions by that name.
 */

export type MassUnit = "g" | "kg" | "mg" | "oz" | "lb";
export type VolumeUnit = "cup" | "tbsp" | "tsp" | "ml" | "l" | "fl oz" | "pint" | "quart" | "gallon";
/** A unit that is a portion of the food by that name ("2 cloves garlic": the food's "clove" portion). */
type NamedUnit = (typeof NAMED_UNITS)[number];
export type Unit = MassUnit | VolumeUnit | NamedUnit;

/** Grams in one unit (1 oz = 28.349523 g, 1 lb = 453.59237 g). */
export const GRAMS_PER: Readonly<Record<MassUnit, number>> = { g: 1, kg: 1000, mg: 0.001, oz: 28.349523, lb: 453.59237 };

const ML_PER_CUP = 236.5882;
/** Millilitres in one unit: 1 cup = 16 tbsp = 48 tsp = 236.5882 ml = 8 fl oz; a pint 2 cups, a quart 4, a gallon 16. */
export const ML_PER: Readonly<Record<VolumeUnit, number>> = {
  cup: ML_PER_CUP,
  tbsp: ML_PER_CUP / 16,
  tsp: ML_PER_CUP / 48,
  ml: 1,
  l: 1000,
  "fl oz": ML_PER_CUP / 8,
  pint: ML_PER_CUP * 2,
  quart: ML_PER_CUP * 4,
  gallon: ML_PER_CUP * 16,
};

/**
 * Portions by name: the nine of decisions §16 and the other count words cooks write before a food, each
 * found among the food's portions by that name ("1 head garlic", "2 ears corn").
 */
export const NAMED_UNITS = [
  "stick", "clove", "slice", "can", "package", "pat", "sprig", "leaf", "stalk",
  "head", "ear", "bunch", "piece", "jar", "bottle", "packet", "envelope", "container", "box", "bag", "carton", "fillet", "strip", "wedge", "dash", "pinch", "drop",
] as const;

export const isMassUnit = (unit: Unit): unit is MassUnit => unit in GRAMS_PER;
export const isVolumeUnit = (unit: Unit): unit is VolumeUnit => unit in ML_PER;

/**
 * Amounts no food's portions name (decisions §16 `unit`: an amount in a unit nothing converts), with their
 * plural and other spellings: read as units, so that they are answered `unit`, never taken for the food
 * nor swapped for another portion the line names ("a handful of basil leaves" is not one leaf).
 */
export const IMPRECISE_UNITS: Readonly<Record<string, readonly string[]>> = {
  handful: ["handfuls"],
  splash: ["splashes"],
  drizzle: ["drizzles"],
  dollop: ["dollops"],
  knob: ["knobs"],
  scoop: ["scoops"],
  sprinkle: ["sprinkles", "sprinkling", "sprinklings"],
  squeeze: ["squeezes"],
  glug: ["glugs"],
  smidgen: ["smidgens", "smidge", "smidgeon"],
};

/** parse-ingredient's unit ids (its `unitsOfMeasure` keys and ours below) by our canonical names. */
const BY_PARSER_ID: Readonly<Record<string, Unit>> = {
  gram: "g",
  kilogram: "kg",
  milligram: "mg",
  ounce: "oz",
  pound: "lb",
  cup: "cup",
  tablespoon: "tbsp",
  teaspoon: "tsp",
  milliliter: "ml",
  liter: "l",
  "fluid ounce": "fl oz",
  pint: "pint",
  quart: "quart",
  gallon: "gallon",
  pack: "package",
  ...Object.fromEntries(NAMED_UNITS.map((unit) => [unit, unit])),
};

/** Our unit for a parse-ingredient unit id; undefined for one no food's portions can give grams for (inch, deciliter). */
export const unitOfParserId = (id: string): Unit | undefined => BY_PARSER_ID[id];

/**
 * What parse-ingredient does not know as it ships: the named portions of §16 it lacks, more spellings of
 * the tablespoon and the fluid ounce. Sizes (`large`, `medium`, `small`) are not units here: they pick a
 * count's portion (grams.ts), so the parser is told to leave them in the description.
 */
export const PARSER_UNITS: UnitOfMeasureDefinitions = {
  slice: { short: "slice", plural: "slices", alternates: ["slc", "rasher", "rashers"], type: "count" },
  pat: { short: "pat", plural: "pats", alternates: [], type: "count" },
  leaf: { short: "leaf", plural: "leaves", alternates: [], type: "count" },
  stalk: { short: "stalk", plural: "stalks", alternates: ["rib", "ribs"], type: "count" },
  jar: { short: "jar", plural: "jars", alternates: [], type: "count" },
  bottle: { short: "bottle", plural: "bottles", alternates: [], type: "count" },
  packet: { short: "packet", plural: "packets", alternates: ["sachet", "sachets"], type: "count" },
  envelope: { short: "envelope", plural: "envelopes", alternates: [], type: "count" },
  fillet: { short: "fillet", plural: "fillets", alternates: ["filet", "filets"], type: "count" },
  strip: { short: "strip", plural: "strips", alternates: [], type: "count" },
  wedge: { short: "wedge", plural: "wedges", alternates: [], type: "count" },
  // A British tin is an American can.
  can: { short: "can", plural: "cans", alternates: ["tin", "tins"], type: "count" },
  ...Object.fromEntries(
    Object.entries(IMPRECISE_UNITS).map(([unit, [plural, ...alternates]]) => [unit, { short: unit, plural: plural!, alternates, type: "count" as const }]),
  ),
  // British spellings of the metric units.
  liter: { short: "l", plural: "liters", alternates: ["l.", "litre", "litres"], type: "volume", conversionFactor: 1e3 },
  milliliter: { short: "ml", plural: "milliliters", alternates: ["mL", "ml.", "mL.", "millilitre", "millilitres"], type: "volume", conversionFactor: 1 },
  tablespoon: {
    short: "tbsp",
    plural: "tablespoons",
    alternates: ["tbsp.", "T", "Tbsp.", "Tbsp", "tablespoonful", "tbs", "tbs.", "tbl", "tbl.", "tblsp", "tblsp.", "tbsps", "tbsps."],
    type: "volume",
  },
  teaspoon: { short: "tsp", plural: "teaspoons", alternates: ["tsp.", "t", "teaspoonful", "tsps", "tsps."], type: "volume" },
  "fluid ounce": {
    short: "fl oz",
    plural: "fluid ounces",
    alternates: ["fl. oz.", "fl. oz", "fl oz.", "fluidounce", "floz", "fl-oz", "fluid-ounce", "fluid-ounces", "fluidounces", "fl ounce", "fl ounces", "fluid oz"],
    type: "volume",
  },
};

/** Size words the parser would take for units. */
export const PARSER_IGNORED_UNITS = ["large", "medium", "small", "lg", "lg.", "md", "md.", "med", "med.", "sm", "sm."];

/**
 * The unit a portion's description starts with ("cup, chopped", "tbsp chopped", "fl oz", "slice, large (1/4"
 * thick)", "cloves"), as a line would say it; undefined for one that starts with anything else ("large",
 * "medium (2-1/2" dia)", "avocado, NS as to Florida or California", "oz").
 */
export function portionUnit(description: string): Unit | undefined {
  const words = description.toLowerCase().match(/[a-z]+/g) ?? [];
  const [first = "", second = ""] = words;
  if ((first === "fl" || first === "fluid") && (second === "oz" || second === "ounce" || second === "ounces")) return "fl oz";
  return DESCRIPTION_UNITS[first];
}

/** How SR28's WEIGHT descriptions spell the units, lower-cased (they never abbreviate a spoon to one letter). */
const DESCRIPTION_UNITS: Readonly<Record<string, Unit>> = {
  cup: "cup",
  cups: "cup",
  tbsp: "tbsp",
  tablespoon: "tbsp",
  tablespoons: "tbsp",
  tsp: "tsp",
  teaspoon: "tsp",
  teaspoons: "tsp",
  ml: "ml",
  liter: "l",
  liters: "l",
  litre: "l",
  pint: "pint",
  pints: "pint",
  quart: "quart",
  quarts: "quart",
  gallon: "gallon",
  gallons: "gallon",
  ...Object.fromEntries(NAMED_UNITS.flatMap((unit) => [[unit, unit], [`${unit}s`, unit]])),
  leaves: "leaf",
  boxes: "box",
  bunches: "bunch",
  pinches: "pinch",
  dashes: "dash",
  pkg: "package",
};
