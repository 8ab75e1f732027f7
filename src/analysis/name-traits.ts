import { CATEGORY_WORDS, PLAIN_NAME_WORDS, PROCESSED_NAME_WORDS } from "./vocabulary";

/**
 * What the matcher's order (match.ts) needs of one SR28 name, computed once when the index is built: how far
 * the name is from the plain form when a line says none of its words, and how much each of its words takes
 * off when the line says it. Scoring a food for a line then reads the line's few words, not the name's, so
 * that a word as common as "salt" (in thousands of names) is ranked in well under a millisecond.
 *
 * The order, lower first: a name that adds only plain words ("raw", "granulated") to the line's comes first;
 * a word of the name's head (its first part) that the line does not say makes it another food ("Onion
 * rings", "Peanut butter"); words of later parts refine, the further the less; processed forms ("fried",
 * "canned") come after plain ones; notes in parentheses hardly count; branded, commodity, baby and dish
 * foods come last; then fewer parts and shorter names.
 */
export interface NameTraits {
  /** The score against a line that says none of the name's words. */
  readonly baseScore: number;
  /** Likewise, how far from the food a line means (confidence is 0.98 less it). */
  readonly baseQuality: number;
  /** The name's distinct word keys, in order, and what each takes off the score and the quality when the line says it. */
  readonly words: readonly string[];
  readonly wordScore: Float32Array;
  readonly wordQuality: Float32Array;
  /** 1 for a word of the name's head, notes included. */
  readonly inHead: Uint8Array;
  /** Head words that are neither plain nor a category ("Fat" of "Fat, chicken"): the head names another food unless the line says them. */
  readonly heavyHead: readonly string[];
  readonly baby: boolean;
}

/** Food groups whose foods are dishes or products rather than ingredients, and how far back they go. */
const GROUP_PENALTIES: Readonly<Record<string, number>> = {
  "0300": 8, // baby foods
  "3500": 4, // American Indian and Alaska Native foods: "Cornmeal, white (Navajo)" is not a cook's cornmeal
  "2200": 2, // meals, entrees and side dishes
  "2500": 1, // snacks
  "0800": 0.5, // breakfast cereals
};
const BABY_FOODS = "0300";
const COMMODITY = /^usda commodity/i;

export interface NameWords {
  readonly name: string;
  readonly groupCode: string;
  readonly branded: boolean;
  readonly words: readonly string[];
  readonly parts: Uint8Array;
  readonly noted: Uint8Array;
}

export function nameTraits(food: NameWords): NameTraits {
  let baseScore = 0;
  let baseQuality = 0;
  const words: string[] = [];
  const wordScore: number[] = [];
  const wordQuality: number[] = [];
  const inHead: number[] = [];
  const heavyHead = new Set<string>();
  food.words.forEach((word, i) => {
    const part = food.parts[i]!;
    const plain = PLAIN_NAME_WORDS.has(word) || CATEGORY_WORDS.has(word);
    if (part === 0 && !food.noted[i] && !plain) heavyHead.add(word);
    let score: number;
    let quality = 0;
    if (food.noted[i]) score = 0.15;
    else if (plain) score = 0.1;
    else if (part === 0) {
      score = 4;
      quality = 0.1;
    } else {
      // A processed form the line does not say comes after every plain one, wherever the name says it.
      score = PROCESSED_NAME_WORDS.has(word) ? 3 : (/^\d+$/.test(word) ? 0.3 : 0.8) / (1 + 0.3 * (part - 1));
      quality = 0.04;
    }
    // A word said twice counts twice ("Potatoes, boiled, cooked in skin, skin" is more skin than potato).
    const seen = words.indexOf(word);
    if (seen === -1) {
      words.push(word);
      wordScore.push(score);
      wordQuality.push(quality);
      inHead.push(part === 0 ? 1 : 0);
    } else {
      wordScore[seen]! += score;
      wordQuality[seen]! += quality;
      if (part === 0) inHead[seen] = 1;
    }
    baseScore += score;
    baseQuality += quality;
  });
  if (food.branded || COMMODITY.test(food.name)) {
    baseScore += food.branded ? 8 : 3;
    baseQuality += 0.3;
  }
  baseScore += GROUP_PENALTIES[food.groupCode] ?? 0;
  baseScore += (food.parts.at(-1)! + 1) * 0.05 + food.name.length * 0.002;
  return {
    baseScore,
    baseQuality,
    words,
    wordScore: Float32Array.from(wordScore),
    wordQuality: Float32Array.from(wordQuality),
    inHead: Uint8Array.from(inHead),
    heavyHead: [...heavyHead],
    baby: food.groupCode === BABY_FOODS,
  };
}

/** How much a line that asks for baby food takes off a baby food's score. */
export const BABY_FOOD_PENALTY = GROUP_PENALTIES[BABY_FOODS]!;
