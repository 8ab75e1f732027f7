// The builders as a namespace (see catalog/model.ts).
import * as Type from "@sinclair/typebox";
import { NutritionLabelSchema } from "../label/model";
import { Integer, queryStrings, unionEnum } from "../platform/http/schema";

/**
 * Recipe analysis's limits (decisions §16), declared here with the schemas that show them; request.ts
 * checks them and the document will read them from here.
 */
export const LINES_MAX = 100;
export const LINE_MAX_CODE_POINTS = 200;
export const SERVINGS_MAX = 1000;
export const ALTERNATIVES_MAX = 3;
export const SUGGEST_QUERY_MIN_CODE_POINTS = 2;
export const SUGGEST_QUERY_MAX_CODE_POINTS = 100;
export const SUGGEST_LIMIT_DEFAULT = 10;
export const SUGGEST_LIMIT_MAX = 20;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const AnalyzeBody = Type.Object({
  lines: Type.Array(Type.String({ minLength: 1, maxLength: LINE_MAX_CODE_POINTS }), {
    minItems: 1,
    maxItems: LINES_MAX,
    description: `1 to ${LINES_MAX} ingredient lines as a cook writes them, each 1 to ${LINE_MAX_CODE_POINTS} characters after trimming. \`#<foodNumber>\` in a line forces that food.`,
    examples: [["1 cup chopped onion", "2 tbsp olive oil", "1 (14.5 oz) can diced tomatoes"]],
  }),
  servings: Type.Optional(Integer({ minimum: 1, maximum: SERVINGS_MAX, default: 1, description: "What `perServing` divides by." })),
  nutrients: Type.Optional(Type.Array(Type.String(), { description: "Only these nutrient numbers in the totals (unknown ones are ignored); all by default." })),
  label: Type.Optional(Type.Boolean({ default: false, description: "Add `label`: the Nutrition Facts label of one serving (`perServing`)." })),
});

const FoodRef = Type.Object({ foodNumber: Type.String(), name: Type.String() });
const Portion = Type.Object({ seq: Integer(), amount: Type.Number(), description: Type.String(), grams: Type.Number() });
const NutrientTotal = Type.Object({ number: Type.String(), name: Type.String(), unit: Type.String(), value: Nullable(Type.Number()) });

const AnalyzedLine = Type.Object({
  line: Type.String(),
  status: unionEnum(["matched", "unmatched"]),
  reason: Type.Optional(
    unionEnum(["food", "quantity", "unit"], {
      description: "Only on an unmatched line: no SR28 food matches it well enough (`food`), it gives no amount (`quantity`), or its unit cannot be turned into grams for its food (`unit`).",
    }),
  ),
  quantity: Nullable(Type.Number()),
  unit: Nullable(Type.String()),
  food: Nullable(FoodRef),
  portion: Nullable(Portion),
  grams: Type.Number({ description: "0 on an unmatched line." }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  alternatives: Type.Array(FoodRef, { maxItems: ALTERNATIVES_MAX }),
});

export const AnalyzeResult = Type.Object({
  items: Type.Array(AnalyzedLine),
  servings: Integer(),
  totalGrams: Type.Number(),
  totals: Type.Array(NutrientTotal),
  perServing: Type.Object({ grams: Type.Number(), nutrients: Type.Array(NutrientTotal) }),
  label: Type.Optional(NutritionLabelSchema),
});

export const SuggestResult = Type.Object({ items: Type.Array(FoodRef) });

export const SuggestQuery = queryStrings(
  Type.Object({
    q: Type.String({
      minLength: SUGGEST_QUERY_MIN_CODE_POINTS,
      maxLength: SUGGEST_QUERY_MAX_CODE_POINTS,
      description: `What has been typed so far: ${SUGGEST_QUERY_MIN_CODE_POINTS} to ${SUGGEST_QUERY_MAX_CODE_POINTS} characters after trimming; the last word may be a prefix, and typos are forgiven.`,
    }),
    limit: Type.Optional(Integer({ minimum: 1, maximum: SUGGEST_LIMIT_MAX, default: SUGGEST_LIMIT_DEFAULT, description: `How many names, 1 to ${SUGGEST_LIMIT_MAX}.` })),
  }),
);


export type AnalyzedLine = typeof AnalyzedLine.static;
export type AnalyzeResult = typeof AnalyzeResult.static;
export type NutrientTotal = typeof NutrientTotal.static;
export type FoodRef = typeof FoodRef.static;
export type SuggestResult = typeof SuggestResult.static;
