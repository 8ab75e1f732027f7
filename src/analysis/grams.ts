import type { PortionRow } from "../catalog/store";
import type { ParsedLine } from "./line";
import { GRAMS_PER, isMassUnit, isVolumeUnit, ML_PER, portionUnit, type Unit, type VolumeUnit } from "./units";
import { DESCRIPTION_PREPARATIONS, PREPARATIONS } from "./vocabulary";
import { wordKeys } from "./words";

/**
 * A line's amount in grams of one food (decisions §16), through SR28's own portions of it: mass exactly;
 * volume by the food's portion in that unit (the one its preparation names, else one naming none, else
 * the first), else another of its volume portions scaled between units; a named unit by the portion of
 * that name; a count by the portion of the size the line says, else medium, else one of the thing
 * itself, else large. Undefined when the food has no portion that can give the grams.
 */
export interface Grams {
  readonly grams: number;
  /** The SR28 portion used; null for a mass. */
  readonly portion: PortionRow | null;
}

/** What a portion's description says, as the rules below read it. */
interface Described {
  readonly unit: Unit | undefined;
  /** Its words' keys. */
  readonly keys: readonly string[];
  /** The keys before any parenthesis ("cup, fluid (yields 2 cups whipped)"). */
  readonly keysBeforeNote: readonly string[];
  /** The keys of its head, before any parenthesis or comma ("medium (2-1/2" dia)" → "medium"). */
  readonly head: readonly string[];
}

/**
 * Descriptions read once and kept: every line reads its food's portions again, and SR28's WEIGHT has a few
 * thousand distinct descriptions, so keeping each costs less than reading it per line (strings and arrays
 * that were most of a line's garbage after the parser's).
 */
const DESCRIBED = new Map<string, Described>();

function described(description: string): Described {
  let kept = DESCRIBED.get(description);
  if (kept === undefined) {
    kept = {
      unit: portionUnit(description),
      keys: wordKeys(description),
      keysBeforeNote: wordKeys(description.split("(")[0]!),
      head: wordKeys(description.split(/[(,]/)[0]!),
    };
    DESCRIBED.set(description, kept);
  }
  return kept;
}

export function gramsFor(line: ParsedLine, quantity: number, portions: readonly PortionRow[], thingWords: ReadonlySet<string>): Grams | undefined {
  if (line.size) {
    const each = amountGrams(line.size.unit, line.size.quantity, line, portions);
    return each && { grams: quantity * each.grams, portion: each.portion };
  }
  if (line.unit !== null) return amountGrams(line.unit, quantity, line, portions);
  if (line.unknownUnit !== null) return namedGrams(wordKeys(line.unknownUnit)[0] ?? "", quantity, line, portions);
  const counted = countPortion(portions, line.sizeWord, thingWords);
  return counted && { grams: (quantity * counted.grams) / counted.amount, portion: counted };
}

function amountGrams(unit: Unit, quantity: number, line: ParsedLine, portions: readonly PortionRow[]): Grams | undefined {
  if (isMassUnit(unit)) return { grams: quantity * GRAMS_PER[unit], portion: null };
  if (isVolumeUnit(unit)) return volumeGrams(unit, quantity, line.preparations, portions);
  return namedGrams(unit, quantity, line, portions);
}

function volumeGrams(unit: VolumeUnit, quantity: number, preparations: readonly string[], portions: readonly PortionRow[]): Grams | undefined {
  const inUnit = portions.filter((p) => described(p.description).unit === unit);
  const same = choosePrepared(inUnit, preparations);
  if (same) return { grams: (quantity * same.grams) / same.amount, portion: same };
  const other = choosePrepared(
    portions.filter((p) => {
      const u = described(p.description).unit;
      return u !== undefined && isVolumeUnit(u);
    }),
    preparations,
  );
  if (!other) return undefined;
  const mlEach = ML_PER[described(other.description).unit as VolumeUnit];
  return { grams: (quantity * ML_PER[unit] * other.grams) / (other.amount * mlEach), portion: other };
}

/** The portion whose description names the line's preparation, else the first naming none, else the first. */
function choosePrepared(portions: readonly PortionRow[], preparations: readonly string[]): PortionRow | undefined {
  if (portions.length <= 1) return portions[0];
  // What a parenthesis adds ("cup, fluid (yields 2 cups whipped)") is a note, not the portion's preparation.
  const words = (p: PortionRow) => described(p.description).keysBeforeNote;
  for (const preparation of preparations) {
    for (const word of PREPARATIONS[preparation] ?? []) {
      const hit = portions.find((p) => words(p).includes(word));
      if (hit) return hit;
    }
  }
  return portions.find((p) => !words(p).some((w) => DESCRIPTION_PREPARATIONS.has(w))) ?? portions[0]!;
}

/** "2 cloves garlic": the food's portion of that name, of the line's size when it has several ("stalk, large"). */
function namedGrams(name: string, quantity: number, line: ParsedLine, portions: readonly PortionRow[]): Grams | undefined {
  const named = portions.filter((p) => described(p.description).unit === name || described(p.description).keys[0] === name);
  const chosen = bySize(named, line.sizeWord, (p) => described(p.description).keys) ?? named[0];
  return chosen && { grams: (quantity * chosen.grams) / chosen.amount, portion: chosen };
}

const SIZE_WORDS = ["extra large", "jumbo", "large", "medium", "small", "extra small"];
/** Words a portion that is one of the thing itself may start with, besides the food's own: "1 fruit". */
const ONE_OF_IT = new Set(["fruit", "whole", "each", "item", "unit", "piece"]);

const headOf = (description: string) => described(description).head;

/** Whether a description's words name `size` ("large" is not said by "extra large"). */
function mentions(words: readonly string[], size: string): boolean {
  let text = ` ${words.join(" ")} `;
  if (!size.startsWith("extra")) text = text.replace(/ extra (large|small) /g, " ");
  return text.includes(` ${size} `);
}

/** Among `portions`, the one of `size`, else medium. */
function bySize(portions: readonly PortionRow[], size: string | null, words: (p: PortionRow) => readonly string[]): PortionRow | undefined {
  const ofSize = (wanted: string) => portions.find((p) => mentions(words(p), wanted));
  return (size === null ? undefined : ofSize(size)) ?? ofSize("medium");
}

/** "2 eggs", "1 large onion", "1 avocado": a count, through the portion of its size, else medium, else one of it, else large. */
function countPortion(portions: readonly PortionRow[], size: string | null, thingWords: ReadonlySet<string>): PortionRow | undefined {
  // Portions that measure (a cup, a slice, an ounce) are not one of the thing.
  const counts = portions.filter((p) => {
    const unit = described(p.description).unit;
    return (unit === undefined || unit === "piece") && !/^\s*(oz|lb|serving|nlea)\b/i.test(p.description);
  });
  const sized = counts.filter((p) => SIZE_WORDS.some((size) => mentions(headOf(p.description), size)));
  const bySizeWord = bySize(sized, size, (p) => headOf(p.description));
  if (bySizeWord) return bySizeWord;
  const oneOfIt = counts.find((p) => {
    const first = headOf(p.description)[0];
    return first !== undefined && (thingWords.has(first) || ONE_OF_IT.has(first));
  });
  return oneOfIt ?? bySize(sized, "large", (p) => headOf(p.description));
}
