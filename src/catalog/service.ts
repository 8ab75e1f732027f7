import { matchesAllTerms, rankCandidates } from "./ranking";
import type { SearchParams } from "./search-params";
import type { CatalogStore } from "./store";
import type { FoodDetail, FoodGroupList, NutrientList, SearchResult } from "./model";

/** The trigram index needs three characters; shorter terms are checked on the candidates it returns. */
const TRIGRAM = 3;

export function searchFoods(store: CatalogStore, params: SearchParams): SearchResult {
  const { terms, group, page, limit } = params;
  const offset = (page - 1) * limit;
  if (terms.length === 0) {
    const total = store.countFoods(group);
    const items = offset < total ? store.foodsByNumber(group, offset, limit) : [];
    return { items, total, page, limit };
  }
  const indexable = terms.filter((term) => [...term].length >= TRIGRAM);
  const candidates =
    indexable.length > 0 ? store.candidatesMatching(toFtsPhrases(indexable), group) : store.allCandidates(group);
  // The index narrows; this check is the definition of a match (every term a substring of the name).
  const matches = rankCandidates(candidates.filter((c) => matchesAllTerms(c.searchName, terms)), terms);
  return {
    items: matches.slice(offset, offset + limit).map(({ foodNumber, name }) => ({ foodNumber, name })),
    total: matches.length,
    page,
    limit,
  };
}

/** Each term as a quoted FTS5 string, so no character of user text is FTS syntax. */
export function toFtsPhrases(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" ");
}

const FOOD_NUMBER = /^\d{5}$/;

/** `nutrients` limits the nutrient list to those numbers; unknown numbers are simply absent. */
export function getFoodDetail(store: CatalogStore, foodNumber: string, nutrients?: readonly string[]): FoodDetail | null {
  if (!FOOD_NUMBER.test(foodNumber)) return null;
  const row = store.food(foodNumber);
  if (!row) return null;
  const { food, groupName } = row;
  return {
    foodNumber: food.foodNumber,
    name: food.name,
    shortName: food.shortName,
    commonName: food.commonName,
    manufacturer: food.manufacturer,
    scientificName: food.scientificName,
    group: { code: food.groupCode, name: groupName },
    refuse: { percent: food.refusePercent, description: food.refuseDescription },
    factors: {
      nitrogen: food.nitrogenFactor,
      protein: food.proteinFactor,
      fat: food.fatFactor,
      carbohydrate: food.carbohydrateFactor,
    },
    nutrients: store.nutrientValuesOf(food.id, nutrients).map(({ derivationCode, derivationDescription, ...value }) => ({
      ...value,
      derivation: derivationCode === null ? null : { code: derivationCode, description: derivationDescription ?? "" },
    })),
    portions: store.portionsOf(food.id),
    footnotes: store.footnotesOf(food.id),
  };
}

/** `?nutrients=203,204`: numbers separated by commas; blanks dropped. */
export function parseNutrientFilter(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  return raw.split(",").map((n) => n.trim()).filter(Boolean);
}

export function listFoodGroups(store: CatalogStore): FoodGroupList {
  return { items: store.foodGroups() };
}

export function listNutrients(store: CatalogStore): NutrientList {
  return {
    items: store.nutrients().map((n) => ({
      number: n.number, name: n.name, unit: n.unit, tag: n.tag, decimals: n.decimals, order: n.srOrder,
    })),
  };
}
