import { amountBasis, amountRequest, type AmountRequest } from "../catalog/amounts";
import { apiError } from "../catalog/errors";
import { foodIdLookup } from "../catalog/service";
import type { CatalogStore, PortionRow } from "../catalog/store";
import { type NutritionLabel, nutritionLabel, type ServingSize } from "./label";

/** What a label request may ask: `grams` or `portion` (a seq), as a detail takes them. */
export interface LabelQuery {
  grams?: string;
  portion?: string;
}

/**
 * Labels of the catalog's foods (decisions §17). A serving is the grams or the portion asked for, checked
 * as a detail checks them (the same 400s, and 404 for a food that is not one), else the food's first portion
 * (SR28's WEIGHT, by seq), else 100 g.
 */
export function createFoodLabels(store: CatalogStore) {
  const idOf = foodIdLookup(store);
  return {
    label(foodNumber: string, query: LabelQuery = {}): NutritionLabel {
      const amount = amountRequest(query);
      const id = idOf(foodNumber);
      if (id === null) throw apiError("FOOD_NOT_FOUND", foodNumber);
      const portions = store.foodPortions(id);
      const values = new Map(store.nutrientValues(id).map((v) => [v.number, v.value]));
      return nutritionLabel(servingSize(portions, amount), values);
    },
  };
}

function servingSize(portions: readonly PortionRow[], amount: AmountRequest | undefined): ServingSize {
  const first = portions[0];
  if (amount === undefined && first === undefined) return { grams: 100, description: null };
  const { basis } = amountBasis(portions, amount ?? { portion: first!.seq });
  return { grams: basis.grams, description: basis.portion && `${basis.portion.amount} ${basis.portion.description}` };
}
