import { t } from "elysia";

/** Request and response schemas of the catalog routes; their static types are the service's types. */

export const SearchQuery = t.Object({
  q: t.Optional(t.String({ description: "Every white-space separated term must occur in the food name (substring, any case)." })),
  group: t.Optional(t.String({ description: "Food group code from /v1/food-groups, e.g. 0100." })),
  page: t.Optional(t.String({ description: "Page number from 1; out-of-range values are clamped." })),
  limit: t.Optional(t.String({ description: "Items per page, 1-90 (default 20); out-of-range values are clamped." })),
});

export const FoodSearchItem = t.Object({ foodNumber: t.String(), name: t.String() });

export const SearchResult = t.Object({
  items: t.Array(FoodSearchItem),
  total: t.Integer(),
  page: t.Integer(),
  limit: t.Integer(),
});

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const FoodNutrient = t.Object({
  number: t.String(),
  name: t.String(),
  tag: Nullable(t.String()),
  unit: t.String(),
  value: t.Number(),
  dataPoints: t.Integer(),
  stdError: Nullable(t.Number()),
  derivation: Nullable(t.Object({ code: t.String(), description: t.String() })),
});

export const FoodDetail = t.Object({
  foodNumber: t.String(),
  name: t.String(),
  shortName: t.String(),
  commonName: Nullable(t.String()),
  manufacturer: Nullable(t.String()),
  scientificName: Nullable(t.String()),
  group: t.Object({ code: t.String(), name: t.String() }),
  refuse: t.Object({ percent: Nullable(t.Number()), description: Nullable(t.String()) }),
  factors: t.Object({
    nitrogen: Nullable(t.Number()),
    protein: Nullable(t.Number()),
    fat: Nullable(t.Number()),
    carbohydrate: Nullable(t.Number()),
  }),
  nutrients: t.Array(FoodNutrient),
  portions: t.Array(t.Object({ seq: t.Integer(), amount: t.Number(), description: t.String(), grams: t.Number() })),
  footnotes: t.Array(
    t.Object({ number: t.String(), type: t.String(), nutrientNumber: Nullable(t.String()), text: t.String() }),
  ),
});

export const FoodGroupList = t.Object({
  items: t.Array(t.Object({ code: t.String(), name: t.String(), foodCount: t.Integer() })),
});

export const NutrientList = t.Object({
  items: t.Array(
    t.Object({
      number: t.String(),
      name: t.String(),
      unit: t.String(),
      tag: Nullable(t.String()),
      decimals: t.Integer(),
      order: t.Integer(),
    }),
  ),
});

export type SearchQuery = typeof SearchQuery.static;
export type FoodSearchItem = typeof FoodSearchItem.static;
export type SearchResult = typeof SearchResult.static;
export type FoodDetail = typeof FoodDetail.static;
export type FoodGroupList = typeof FoodGroupList.static;
export type NutrientList = typeof NutrientList.static;
