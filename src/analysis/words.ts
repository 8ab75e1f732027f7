import pluralize from "pluralize";
import { foldForSearch } from "../catalog/fold";

/**
 * Words as the matcher compares them: folded as the catalog's search folds names (case and diacritics
 * ignored: "Jalapeño" is "jalapeno"), split on anything that is not a letter or a digit ("all-purpose" is
 * "all" and "purpose"), and each reduced to its singular, the same way in a food's name and in a line, so
 * that `tomatoes` meets "Tomatoes" and `tomato`, `sugar` meets "Sugars".
 */

const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** The folded words of `text`, in order, empty ones dropped. */
export function foldedWords(text: string): string[] {
  return foldForSearch(text).replace(POSSESSIVE, "").split(NOT_WORD).filter(Boolean);
}
/** "baker's", "HELLMANN'S": the possessive is no word of its own. */
const POSSESSIVE = /['\u2019]s\b/gu;

/**
 * Singulars pluralize gets wrong for food words: it makes "cookies" "cooky" while "cookie" stays "cookie",
 * so the two forms would not meet. Both forms of each are listed.
 */
const SINGULARS: Readonly<Record<string, string>> = {
  cookies: "cookie",
  brownies: "brownie",
  // Chile, chili and the British chilli are one pepper, in SR28's names as in lines.
  chilli: "chili",
  chillies: "chili",
  chillis: "chili",
  chilies: "chili",
  chilis: "chili",
  chiles: "chili",
  chile: "chili",
  veggies: "veggie",
  smoothies: "smoothie",
  calories: "calorie",
  rotinis: "rotini",
  molasses: "molasses",
  grits: "grits",
  hummus: "hummus",
  asparagus: "asparagus",
  couscous: "couscous",
  citrus: "citrus",
  swiss: "swiss",
  greens: "greens",
  oats: "oat",
};

/** A word's key: its singular (a number or a word that is not plural stays as it is). */
export function wordKey(folded: string): string {
  const known = SINGULARS[folded];
  if (known !== undefined) return known;
  // Short words and numbers are their own key: pluralize would make "gras" "gra" and "is" "i".
  if (folded.length < 4 || !folded.endsWith("s")) return folded;
  return pluralize.singular(folded);
}

/** The keys of `text`'s words, in order. */
export function wordKeys(text: string): string[] {
  return foldedWords(text).map(wordKey);
}

/**
 * Keys after "without" are what the food lacks: marked (`-salt`), so that "onion salt" is not "Onions,
 * boiled, without salt", while "unsalted butter" (a line's "without salt") still is "Butter, without salt".
 */
export function markLacking(keys: readonly string[]): string[] {
  let lacking = false;
  return keys.map((key) => {
    if (key === "without") {
      lacking = true;
      return key;
    }
    if (lacking && NOT_LACKING.has(key)) lacking = false;
    return lacking ? `-${key}` : key;
  });
}
/** Words that end what "without" governs ("without skin and seeds" lacks both; "or", "with" start anew). */
const NOT_LACKING = new Set(["with", "or", "plus"]);
