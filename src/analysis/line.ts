import { type Ingredient, parseIngredient } from "parse-ingredient";
import { IMPRECISE_UNITS, isMassUnit, isVolumeUnit, type MassUnit, NAMED_UNITS, PARSER_IGNORED_UNITS, PARSER_UNITS, type Unit, unitOfParserId, type VolumeUnit } from "./units";
import { ACCENTED_NAMES, NOISE, PREPARATIONS, SOFT_WORDS, STATES, SYNONYMS } from "./vocabulary";
import { foldedWords, markLacking, wordKey } from "./words";

/**
 * One ingredient line read into what the matcher and the conversion need (decisions §16). The quantity and
 * unit are parse-ingredient's (with numeric-quantity it reads integers, decimals, fractions, mixed numbers,
 * Unicode vulgar fractions and ranges); this module adds what it does not do: number words ("a dozen",
 * "half a cup"), a parenthesised size before a container, `#<foodNumber>`, and the split of the rest into
 * the food's words and the words about it.
 */
export interface ParsedLine {
  /** A positive finite amount (a range's midpoint); null when the line gives none, or none that makes sense. */
  readonly quantity: number | null;
  /** Why `quantity` is null: the line names no amount ("to taste"), or one that is no amount ("1/0", "2-1"). */
  readonly quantityProblem: "none" | "invalid" | null;
  /** The unit as we name it; null for a count. */
  readonly unit: Unit | null;
  /** A unit the line names that we cannot turn into grams ("2 inches ginger"), as written. */
  readonly unknownUnit: string | null;
  /** "1 (14.5 oz) can": the size of each, which sets the grams. */
  readonly size: { readonly quantity: number; readonly unit: MassUnit | VolumeUnit } | null;
  /** small, medium, large, extra large or jumbo: which of a count's portions. */
  readonly sizeWord: string | null;
  /** Preparation words (keys of PREPARATIONS), in line order. */
  readonly preparations: readonly string[];
  /** States the food's name must have (keys of STATES). */
  readonly states: readonly string[];
  /** The keys of the words naming the food, in order, after noise and synonyms. */
  readonly foodWords: readonly string[];
  /** Every word key of the line: a name's word among them is no extra. */
  readonly lineWords: ReadonlySet<string>;
  /** `#01001` in the line: that food, whatever the words say. */
  readonly forcedFoodNumber: string | null;
  /** The line carries characters no ingredient line has (control, bidirectional override): it is not read. */
  readonly unreadable: boolean;
}

/**
 * Control characters (NUL and the like) and bidirectional controls, which can make a line display as
 * something other than what it says: such a line is not read at all.
 */
const UNREADABLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** Other invisible format characters (zero-width space, soft hyphen, byte order mark): dropped. */
const INVISIBLE = /\p{Cf}/gu;
const IMPRECISE_WORDS = Object.entries(IMPRECISE_UNITS).flatMap(([unit, others]) => [unit, ...others]).join("|");
const SIZED_IMPRECISE = new RegExp(`\\b(?:large|small|big|good|little|medium|generous|heaped|heaping)\\s+(?=(?:${IMPRECISE_WORDS})\\b)`, "i");
const BARE_IMPRECISE = new RegExp(`^(${IMPRECISE_WORDS})\\b`, "i");
/** "2 x 400g": a count of containers, then the size of each. */
const TIMES_SIZE = /^(\d+)\s*[x×]\s*(\d+(?:\.\d+)?\s*[a-z]+\.?)\s+/i;
const FORCED_FOOD = /(?:^|\s)#(\d{5})(?=\s|$)/;

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, half: 0.5,
};
const LEADING_NUMBER_WORD = new RegExp(`^(${Object.keys(NUMBER_WORDS).join("|")})\\b\\s*`, "i");
const DOZEN = 12;

const PARSER_OPTIONS = {
  normalizeUOM: true,
  round: false,
  additionalUOMs: PARSER_UNITS,
  ignoreUOMs: PARSER_IGNORED_UNITS,
  leadingQuantityPrefixes: ["approximately", "approx.", "about", "around", "roughly", "scant", "heaping", "generous", "heaped"],
} as const;

/** Containers a parenthesised size may stand before: "1 (14.5 oz) can", "2 (8 ounce) packages". */
const CONTAINERS = new Set(["can", "package", "jar", "bottle", "packet", "sachet", "envelope", "container", "box", "bag", "carton", "pouch", "tub", "tin", "pkg", "block", "stick", "tube"]);
const SIZES = ["extra large", "jumbo", "large", "medium", "small"] as const;
const SIZE_ABBREVIATIONS: Readonly<Record<string, (typeof SIZES)[number]>> = { lg: "large", med: "medium", md: "medium", sm: "small" };
/** Portion names a line may put after the food, or between a size and the food ("5 garlic cloves", "1 large stalk celery"). */
const PORTION_WORDS: ReadonlySet<string> = new Set(["clove", "stalk", "sprig", "leaf", "slice", "head", "ear", "bunch", "fillet", "stick", "drop", "pinch", "dash"]);
/** Conjunctions between two foods: "salt and pepper" is salt, "butter or margarine" butter. */
const ALTERNATIVE = /\s+(?:or|and\/or|\/)\s+/;
const CONJUNCTION = /\s+(?:and|&)\s+/;

/** Whether SR28 names a food with this pair ("half and half"): then "and" joins no two foods. */
export type KnownPhrase = (phrase: string) => boolean;

/**
 * The lines, read. parse-ingredient is given them all at once: it builds its expressions for the options
 * on every call, which costs more than reading a line.
 */
export function parseLines(raws: readonly string[], isKnownPhrase: KnownPhrase): ParsedLine[] {
  const prepared = raws.map(prepare);
  const parsed = parseIngredient(
    prepared.map((p) => p.text),
    { ...PARSER_OPTIONS, includeMeta: true },
  );
  const bySource = new Map(parsed.map((ingredient) => [ingredient.meta!.sourceIndex, ingredient]));
  return prepared.map((p, i) => readLine(p, bySource.get(i), isKnownPhrase));
}

interface PreparedLine {
  /** Cleaned, `#<foodNumber>` taken out, number words as digits: what the parser reads. */
  readonly text: string;
  readonly forcedFoodNumber: string | null;
  readonly unreadable: boolean;
}

function prepare(raw: string): PreparedLine {
  const unreadable = UNREADABLE.test(raw.replaceAll("\t", " "));
  let text = raw.replaceAll("\t", " ").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  let forcedFoodNumber: string | null = null;
  const forced = FORCED_FOOD.exec(text);
  if (forced) {
    forcedFoodNumber = forced[1]!;
    text = (text.slice(0, forced.index) + text.slice(forced.index + forced[0].length)).trim();
  }
  // "a large handful of spinach", "a good glug of oil": how big an imprecise amount is hides its unit from
  // the parser, and says nothing that converts; "handful of basil" is one.
  text = text.replace(SIZED_IMPRECISE, "").replace(BARE_IMPRECISE, "1 $1");
  // "2 x 400g tins tomatoes" says what "2 (400 g) tins tomatoes" does.
  text = text.replace(TIMES_SIZE, "$1 ($2) ");
  // The parser takes a line per line break: there is none in a line, whatever the client sent.
  return { text: numberWords(text).replace(/[\r\n]/g, " "), forcedFoodNumber, unreadable };
}

function readLine({ forcedFoodNumber, unreadable }: PreparedLine, parsed: Ingredient | undefined, isKnownPhrase: KnownPhrase): ParsedLine {
  let description = parsed?.description ?? "";

  let quantity: number | null = null;
  let quantityProblem: ParsedLine["quantityProblem"] = null;
  const low = parsed?.quantity ?? null;
  const high = parsed?.quantity2 ?? null;
  if (low === null) {
    // A number the parser would not take ("1/0", "1e309", "-2") is an amount that makes no sense, not none.
    quantityProblem = /^[\s(]*[-+.]?\d/.test(description) ? "invalid" : "none";
  } else if (high !== null && high < low) {
    quantityProblem = "invalid";
  } else {
    quantity = high === null ? low : (low + high) / 2;
    if (!Number.isFinite(quantity) || quantity <= 0) {
      quantityProblem = quantity === 0 ? "none" : "invalid";
      quantity = null;
    }
  }

  let unit: Unit | null = null;
  let unknownUnit: string | null = null;
  const parserUnit = parsed?.unitOfMeasureID ?? null;
  if (parserUnit === "dozen") {
    if (quantity !== null) quantity *= DOZEN;
  } else if (parserUnit !== null) {
    unit = unitOfParserId(parserUnit) ?? null;
    if (unit === null) unknownUnit = parsed?.unitOfMeasure ?? parserUnit;
  }

  // "1 (14.5 oz) can diced tomatoes", "1 can (15 oz) beans": the size in parentheses sets the grams.
  let size: ParsedLine["size"] = null;
  const parenthesised = /^\(([^()]*)\)\s*/.exec(description);
  if (parenthesised) {
    size = sizeOf(parenthesised[1]!);
    if (size) {
      description = description.slice(parenthesised[0].length);
      const container = /^([a-z]+)\.?\s*/i.exec(description);
      if (container && CONTAINERS.has(wordKey(container[1]!.toLowerCase()))) {
        if (unit === null) unit = containerUnit(wordKey(container[1]!.toLowerCase()));
        description = description.slice(container[0].length);
      }
    }
  }
  // "400 g tin chopped tomatoes": a mass or volume before a container is the size of one.
  const sized = size === null && quantity !== null && unit !== null && (isMassUnit(unit) || isVolumeUnit(unit)) ? /^([a-z]+)\.?\s+/i.exec(description) : null;
  if (sized && CONTAINERS.has(wordKey(sized[1]!.toLowerCase())) && unit !== null && (isMassUnit(unit) || isVolumeUnit(unit))) {
    size = { quantity: quantity!, unit };
    quantity = 1;
    unit = containerUnit(wordKey(sized[1]!.toLowerCase()));
    description = description.slice(sized[0].length);
  }
  description = description.replace(/\([^()]*\)/g, " ");

  // The food is named before the first comma; what follows says how it is prepared ("onion, chopped"),
  // unless all before it is about the food ("4 skinless, boneless chicken breast halves").
  let comma = description.indexOf(",");
  while (comma !== -1 && foldedWords(description.slice(0, comma)).every((word) => NOISE.has(wordKey(word)))) {
    const next = description.indexOf(",", comma + 1);
    if (next === -1) {
      comma = -1;
      break;
    }
    comma = next;
  }
  const head = comma === -1 ? description : description.slice(0, comma);
  const tail = comma === -1 ? "" : description.slice(comma + 1);

  const preparations: string[] = [];
  const states: string[] = [];
  let sizeWord: string | null = null;
  const lineWords = new Set<string>();
  const read = (words: readonly string[]) => {
    words.forEach((word, i) => {
      const key = wordKey(word);
      lineWords.add(key);
      if (key in PREPARATIONS && !preparations.includes(key)) preparations.push(key);
      if (key in STATES && !states.includes(key)) states.push(key);
      if (sizeWord === null) {
        if (key === "extra" && words[i + 1] === "large") sizeWord = "extra large";
        else if ((SIZES as readonly string[]).includes(key)) sizeWord = key;
        else if (key in SIZE_ABBREVIATIONS) sizeWord = SIZE_ABBREVIATIONS[key]!;
      }
    });
  };
  read(foldedWords(tail));

  const choice = firstAlternative(head, isKnownPhrase);
  const words = foldedWords(withAccentedNames(choice));
  read(words);
  // "freshly ground black pepper": ground is how pepper is bought, not a state the name must have.
  if (words.some((w, i) => w === "ground" && words[i - 1] === "freshly")) states.splice(states.indexOf("ground"), 1);

  // Synonyms first: their words name the food even where they would be noise ("half and half").
  const synonymised = applySynonyms(markLacking(words.map(wordKey)));
  // A state word a synonym took in is part of a name, no state ("ground almonds" are almonds).
  for (const state of synonymised.consumed) if (states.includes(state)) states.splice(states.indexOf(state), 1);
  let named = synonymised.words.filter(({ key, kept }) => kept || (!NOISE.has(key) && !(key in STATES)));
  // Leading numbers or unit words left by a quantity the parser refused ("1/0 cup flour", "1e309 g") name no food;
  // a percentage names one ("2% milk").
  if (!/^\s*\d+(?:\.\d+)?\s*%/.test(choice)) {
    while (named.length > 0 && (/^\d/.test(named[0]!.key) || isUnitWord(named[0]!.key))) named = named.slice(1);
  }
  // "5 garlic cloves", "1 lb salmon fillets": a portion's name after the food is the unit, not the food;
  // so is one before it that the parser left there ("1 large stalk celery").
  // An amount in a unit nothing converts ("a handful of basil leaves") stays in that unit.
  const last = named.at(-1);
  // Not when the rest only narrows ("2 whole cloves" are cloves).
  if (named.length > 1 && last && !last.kept && PORTION_WORDS.has(last.key) && named.slice(0, -1).some(({ key }) => !SOFT_WORDS.has(key))) {
    named = named.slice(0, -1);
    if (unit === null && unknownUnit === null && quantity !== null) unit = last.key as Unit;
  }
  // "a few sprigs of thyme": without an amount, the portion word names no food either.
  const first = named[0];
  if (named.length > 1 && first && !first.kept && PORTION_WORDS.has(first.key) && unit === null && unknownUnit === null) {
    named = named.slice(1);
    if (quantity !== null) unit = first.key as Unit;
  }
  const foodWords = named.map(({ key }) => key);
  for (const key of foodWords) lineWords.add(key);

  return {
    quantity,
    quantityProblem,
    unit,
    unknownUnit,
    size,
    sizeWord,
    preparations,
    states,
    foodWords,
    lineWords,
    forcedFoodNumber,
    unreadable,
  };
}

/**
 * Number words at the start as digits: "a dozen eggs" is 12 eggs, "half a cup" 0.5 cup, "two large eggs"
 * 2, "one and a half cups" 1 1/2; "a few" and "a little" are no amount.
 */
function numberWords(text: string): string {
  const andHalf = /^(\d+)\s+and\s+a\s+half\b/i.exec(text);
  if (andHalf) return `${andHalf[1]} 1/2${text.slice(andHalf[0].length)}`;
  const word = LEADING_NUMBER_WORD.exec(text);
  let rest = text;
  let number: number | null = null;
  if (word) {
    rest = text.slice(word[0].length);
    if (/^(?:few|little|bit|touch)\b/i.test(rest)) return rest;
    number = NUMBER_WORDS[word[1]!.toLowerCase()]!;
    if (/^couple\b/i.test(rest) && number === 1) {
      number = 2;
      rest = rest.replace(/^couple\s*(?:of\b)?\s*/i, "");
    }
    // "half a cup", "half an onion"
    if (number === 0.5) rest = rest.replace(/^an?\b\s*/i, "");
  }
  const dozen = /^(?:a\s+)?dozen\b\s*/i.exec(rest);
  if (dozen) return `${(number ?? 1) * DOZEN} ${rest.slice(dozen[0].length)}`;
  if (number === null) return text;
  const half = /^and\s+a\s+half\b\s*/i.exec(rest);
  if (half) return `${number} 1/2 ${rest.slice(half[0].length)}`;
  return `${number} ${rest}`;
}

function sizeOf(inside: string): ParsedLine["size"] {
  // The parser reads a unit only before a description: a placeholder stands for the food.
  const parsed = parseIngredient(`${inside.replace(/(\d)-(?=[a-z])/gi, "$1 ")} x`, PARSER_OPTIONS)[0];
  if (!parsed || parsed.quantity === null || parsed.quantity2 !== null || parsed.unitOfMeasureID === null) return null;
  const unit = unitOfParserId(parsed.unitOfMeasureID);
  if (unit === undefined || !(isMassUnit(unit) || isVolumeUnit(unit))) return null;
  if (!Number.isFinite(parsed.quantity) || parsed.quantity <= 0) return null;
  return { quantity: parsed.quantity, unit };
}

const containerUnit = (key: string): Unit => {
  if (key === "pkg") return "package";
  if (key === "tin") return "can";
  if (key === "sachet") return "packet";
  return (NAMED_UNITS as readonly string[]).includes(key) ? (key as Unit) : "package";
};

const UNIT_WORDS = new Set(["cup", "c", "tbsp", "tablespoon", "tsp", "teaspoon", "g", "gram", "kg", "mg", "oz", "ounce", "lb", "pound", "ml", "l", "liter", "pint", "quart", "gallon", "fl"]);
const isUnitWord = (key: string) => UNIT_WORDS.has(key);

/**
 * The first of alternatives ("butter or margarine"), and the first of two foods joined by "and" unless
 * some SR28 name says the pair as one food ("half and half", "macaroni and cheese").
 */
function firstAlternative(head: string, isKnownPhrase: KnownPhrase): string {
  const first = head.split(ALTERNATIVE)[0]!;
  const conjunction = CONJUNCTION.exec(first);
  if (!conjunction) return first;
  const before = foldedWords(first.slice(0, conjunction.index)).map(wordKey);
  const after = foldedWords(first.slice(conjunction.index + conjunction[0].length)).map(wordKey);
  if (before.length > 0 && after.length > 0 && isKnownPhrase(`${before.at(-1)} and ${after[0]}`)) return first;
  return first.slice(0, conjunction.index);
}

const ACCENTED = Object.entries(ACCENTED_NAMES).map(([name, replacement]) => [new RegExp(`(?<![\\p{L}\\p{N}])${name}(?![\\p{L}\\p{N}])`, "giu"), replacement] as const);

/** The names whose accent says which food they are (vocabulary.ts), before folding loses it. */
function withAccentedNames(text: string): string {
  let out = text.normalize("NFC");
  for (const [pattern, replacement] of ACCENTED) out = out.replace(pattern, replacement);
  return out;
}

/** The synonyms' phrases by their first word, each list longest phrase first (in SYNONYMS' order within a length). */
type Synonym = readonly [phrase: readonly string[], replacement: readonly string[]];
const SYNONYM_PHRASES = new Map<string, Synonym[]>();
for (const [phrase, replacement] of Object.entries(SYNONYMS)
  .map(([phrase, replacement]) => [phrase.split(" "), replacement === "" ? [] : replacement.split(" ")] as const)
  .sort((a, b) => b[0].length - a[0].length)) {
  const list = SYNONYM_PHRASES.get(phrase[0]!);
  if (list) list.push([phrase, replacement]);
  else SYNONYM_PHRASES.set(phrase[0]!, [[phrase, replacement]]);
}

/** The first of the synonyms' phrases that `words` say from `at` on. */
function synonymAt(words: readonly string[], at: number): Synonym | undefined {
  // Plain loops, not find/every: a closure per phrase and word of every line was most of a line's garbage.
  for (const entry of SYNONYM_PHRASES.get(words[at]!) ?? []) {
    const phrase = entry[0];
    let j = 1;
    while (j < phrase.length && words[at + j] === phrase[j]) j++;
    if (j === phrase.length) return entry;
  }
  return undefined;
}

/**
 * The cook's names SR28 spells otherwise, replaced by SR28's words, longest phrase first; the words a
 * synonym gives are `kept`, whatever noise they would be alone.
 */
function applySynonyms(words: readonly string[]): { words: { key: string; kept: boolean }[]; consumed: Set<string> } {
  const out: { key: string; kept: boolean }[] = [];
  const consumed = new Set<string>();
  for (let i = 0; i < words.length; ) {
    const hit = synonymAt(words, i);
    if (hit) {
      out.push(...hit[1].map((key) => ({ key, kept: true })));
      for (const word of hit[0]) if (!hit[1].includes(word)) consumed.add(word);
      i += hit[0].length;
    } else out.push({ key: words[i++]!, kept: false });
  }
  return { words: out, consumed };
}
