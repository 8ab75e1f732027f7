import MiniSearch from "minisearch";
import type { CatalogStore, PortionRow } from "../catalog/store";
import { type NameTraits, nameTraits } from "./name-traits";
import { foldedWords, markLacking, wordKey } from "./words";

/**
 * The name index the analysis matches lines against, built once per process from the catalog (all 8,789
 * SR28 foods): each food's name as word keys (words.ts) with the comma-separated part each is in, an
 * inverted list per key, each food's portions, and a MiniSearch index of the names for what is typed
 * with typos (suggestions, a misspelt word of a line), built when first needed. Immutable once built, shared by every request.
 */

export interface IndexedFood {
  /** NDB_No as an integer. */
  readonly id: number;
  readonly foodNumber: string;
  readonly name: string;
  readonly groupCode: string;
  /** A branded or restaurant item: a manufacturer, a restaurant or fast-food group, or a brand in capitals. */
  readonly branded: boolean;
  /** SR28's portions of the food (WEIGHT), by seq. */
  readonly portions: readonly PortionRow[];
  /** The name's distinct word keys (`traits.words`) and what the matcher's order needs of them. */
  readonly traits: NameTraits;
}

type NameSearch = MiniSearch<{ position: number; name: string }>;

export interface FoodIndex {
  readonly foods: readonly IndexedFood[];
  /** Food positions by food number. */
  readonly positionOf: ReadonlyMap<string, number>;
  /** Each word key's foods, as ascending positions. */
  readonly postings: ReadonlyMap<string, Int32Array>;
  /** Consecutive key pairs and triples of the names ("half and half"), to tell a food named with "and" from two foods. */
  readonly phrases: ReadonlySet<string>;
  /** Built at first use (a typo, a suggestion). */
  readonly names: NameSearch;
  /** The nearest word keys of the names to `word` (a key no name has), within one edit (two from nine letters on). */
  nearestWords(word: string): string[];
}

/** Fast foods and restaurant foods: SR28 groups 2100 and 3600 (the catalog's ranking.ts says the same). */
const RESTAURANT_GROUPS = new Set(["2100", "3600"]);
const NOT_BRANDS = new Set(["USDA", "BBQ", "DHA", "ARA", "NFS"]);
const CAPITALISED_WORD = /\b[A-Z][A-Z'&.-]*[A-Z]\b/g;

function isBranded(name: string, groupCode: string, manufacturer: string | null): boolean {
  if (manufacturer || RESTAURANT_GROUPS.has(groupCode)) return true;
  for (const word of name.match(CAPITALISED_WORD) ?? []) {
    if (word.replace(/[^A-Z]/g, "").length >= 3 && !NOT_BRANDS.has(word)) return true;
  }
  return false;
}

/**
 * A name's comma-separated parts, each as runs of text in or out of parentheses: "Chickpeas (garbanzo
 * beans, bengal gram), mature seeds, raw" is three parts, the first "Chickpeas" and a note.
 */
function nameParts(name: string): { text: string; inParentheses: boolean }[][] {
  const parts: { text: string; inParentheses: boolean }[][] = [[]];
  let depth = 0;
  let run = "";
  const close = () => {
    if (run.trim() !== "") parts.at(-1)!.push({ text: run, inParentheses: depth > 0 });
    run = "";
  };
  for (const character of name) {
    if (character === "(" || character === ")") {
      close();
      depth = Math.max(0, depth + (character === "(" ? 1 : -1));
    } else if (character === "," && depth === 0) {
      close();
      parts.push([]);
    } else run += character;
  }
  close();
  return parts;
}

/** Keys of a run of a name, each word reduced to its key (`keys` remembers the keys made, for the next name). */
const partKeys = (text: string, keys: Map<string, string>) =>
  foldedWords(text).map((word) => {
    let key = keys.get(word);
    if (key === undefined) keys.set(word, (key = wordKey(word)));
    return key;
  });

export function buildFoodIndex(store: CatalogStore): FoodIndex {
  const portionsById = new Map<number, PortionRow[]>();
  for (const row of store.allPortions()) {
    const list = portionsById.get(row.foodId);
    if (list) list.push(row);
    else portionsById.set(row.foodId, [row]);
  }
  const postingLists = new Map<string, number[]>();
  const keyOf = new Map<string, string>();
  const phrases = new Set<string>();
  const foods = store.allCandidates().map((candidate, position): IndexedFood => {
    const words: string[] = [];
    const parts: number[] = [];
    const noted: number[] = [];
    nameParts(candidate.name).forEach((part, partIndex) => {
      for (const { text, inParentheses } of part) {
        const keys = markLacking(partKeys(text, keyOf));
        keys.forEach((key, i) => {
          words.push(key);
          parts.push(Math.min(partIndex, 255));
          noted.push(inParentheses ? 1 : 0);
          if (i + 2 < keys.length && keys[i + 1] === "and") phrases.add(`${key} and ${keys[i + 2]}`);
        });
      }
    });
    for (const key of new Set(words)) {
      const list = postingLists.get(key);
      if (list) list.push(position);
      else postingLists.set(key, [position]);
    }
    const id = Number(candidate.foodNumber);
    const named = {
      name: candidate.name,
      groupCode: candidate.groupCode,
      branded: isBranded(candidate.name, candidate.groupCode, candidate.manufacturer),
      words,
      parts: Uint8Array.from(parts),
      noted: Uint8Array.from(noted),
    };
    return { id, foodNumber: candidate.foodNumber, name: candidate.name, groupCode: candidate.groupCode, branded: named.branded, portions: portionsById.get(id) ?? [], traits: nameTraits(named) };
  });
  const postings = new Map([...postingLists].map(([key, list]) => [key, Int32Array.from(list)]));

  // The typo index is the index's largest part and the slowest to build, and only a word in no name (a typo)
  // or a suggestion needs it: it is built then, once.
  let names: NameSearch | undefined;
  const index: FoodIndex = {
    foods,
    positionOf: new Map(foods.map((food, position) => [food.foodNumber, position])),
    postings,
    phrases,
    get names() {
      return (names ??= nameSearch(foods, keyOf));
    },
    nearestWords(word) {
      if (word.length < 5 || !/^\p{L}+$/u.test(word)) return [];
      const edits = word.length >= 9 ? 2 : 1;
      // Suggestions for one word are single words of the names, the most likely first.
      return index.names.autoSuggest(word, { fuzzy: edits, prefix: false }).map((s) => s.suggestion).slice(0, 3);
    },
  };
  return index;
}

/** MiniSearch over the names, their words keyed as the index's (`keys`: the keys the names' words were given). */
function nameSearch(foods: readonly IndexedFood[], keys: ReadonlyMap<string, string>): NameSearch {
  const names: NameSearch = new MiniSearch({
    idField: "position",
    fields: ["name"],
    tokenize: (text) => foldedWords(text),
    processTerm: (term) => keys.get(term) ?? wordKey(term),
  });
  names.addAll(foods.map((food, position) => ({ position, name: food.name })));
  return names;
}
