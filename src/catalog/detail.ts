import type { foods, nutrientValues } from "./sqlite-schema";
import type { NutrientDefinition } from "./store";
import type { FoodDetail } from "./model";

/**
 * A food's detail answer from its catalog rows. Pure: the importer runs it once per food and stores the
 * result (see `food_details`), so serving a detail never re-assembles it.
 */
export type FoodRow = typeof foods.$inferSelect & { groupName: string };
export type ValueRow = Pick<typeof nutrientValues.$inferSelect, "nutrientNumber" | "value" | "dataPoints" | "stdError" | "derivationCode">;

export interface DetailDictionaries {
  /** Nutrient definitions by number, with their position in SR order. */
  readonly nutrients: ReadonlyMap<string, { readonly def: NutrientDefinition; readonly order: number }>;
  /** Derivation code to description. */
  readonly derivations: ReadonlyMap<string, string>;
}

/** What the stored values are for: 100 g of edible portion (portions.ts scales them to other amounts). */
export const PER_100_GRAMS: FoodDetail["basis"] = { grams: 100, portion: null };

export function toFoodDetail(
  food: FoodRow,
  values: readonly ValueRow[],
  portions: FoodDetail["portions"],
  footnotes: FoodDetail["footnotes"],
  { nutrients: byNumber, derivations }: DetailDictionaries,
): FoodDetail {
  const ordered = values.map((v) => ({ v, n: byNumber.get(v.nutrientNumber)! })).sort((a, b) => a.n.order - b.n.order);
  return {
    foodNumber: food.foodNumber,
    name: food.name,
    shortName: food.shortName,
    commonName: food.commonName,
    manufacturer: food.manufacturer,
    scientificName: food.scientificName,
    group: { code: food.groupCode, name: food.groupName },
    refuse: { percent: food.refusePercent, description: food.refuseDescription },
    factors: {
      nitrogen: food.nitrogenFactor,
      protein: food.proteinFactor,
      fat: food.fatFactor,
      carbohydrate: food.carbohydrateFactor,
    },
    basis: PER_100_GRAMS,
    nutrients: ordered.map(({ v, n }) => ({
      number: n.def.number,
      name: n.def.name,
      tag: n.def.tag,
      unit: n.def.unit,
      value: v.value,
      dataPoints: v.dataPoints,
      stdError: v.stdError,
      derivation: v.derivationCode === null ? null : { code: v.derivationCode, description: derivations.get(v.derivationCode) ?? "" },
    })),
    portions,
    footnotes,
  };
}
