import { t } from "elysia";
import { NutritionLabelSchema } from "../label/model";
import { Integer, queryStrings } from "../platform/http/schema";

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

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const AnalyzeBody = t.Object({
  lines: t.Array(t.String({ minLength: 1, maxLength: LINE_MAX_CODE_POINTS }), {
    minItems: 1,
    maxItems: LINES_MAX,
    description: `1 to ${LINES_MAX} ingredient lines as a cook writes them, each 1 to ${LINE_MAX_CODE_POINTS} characters after trimming. \`#<foodNumber>\` in a line forces that food.`,
    examples: [["1 cup chopped onion", "2 tbsp olive oil", "1 (14.5 oz) can diced tomatoes"]],
  }),
  servings: t.Optional(Integer({ minimum: 1, maximum: SERVINGS_MAX, default: 1, description: "What `perServing` divides by." })),
  nutrients: t.Optional(t.Array(t.String(), { description: "Only these nutrient numbers in the totals (unknown ones are ignored); all by default." })),
  label: t.Optional(t.Boolean({ default: false, description: "Add `label`: the Nutrition Facts label of one serving (`perServing`)." })),
});

const FoodRef = t.Object({ foodNumber: t.String(), name: t.String() });
const Portion = t.Object({ seq: Integer(), amount: t.Number(), description: t.String(), grams: t.Number() });
const NutrientTotal = t.Object({ number: t.String(), name: t.String(), unit: t.String(), value: Nullable(t.Number()) });

const AnalyzedLine = t.Object({
  line: t.String(),
  status: t.UnionEnum(["matched", "unmatched"]),
  reason: t.Optional(
    t.UnionEnum(["food", "quantity", "unit"], {
      description: "Only on an unmatched line: no SR28 food matches it well enough (`food`), it gives no amount (`quantity`), or its unit cannot be turned into grams for its food (`unit`).",
    }),
  ),
  quantity: Nullable(t.Number()),
  unit: Nullable(t.String()),
  food: Nullable(FoodRef),
  portion: Nullable(Portion),
  grams: t.Number({ description: "0 on an unmatched line." }),
  confidence: t.Number({ minimum: 0, maximum: 1 }),
  alternatives: t.Array(FoodRef, { maxItems: ALTERNATIVES_MAX }),
});

export const AnalyzeResult = t.Object({
  items: t.Array(AnalyzedLine),
  servings: Integer(),
  totalGrams: t.Number(),
  totals: t.Array(NutrientTotal),
  perServing: t.Object({ grams: t.Number(), nutrients: t.Array(NutrientTotal) }),
  label: t.Optional(NutritionLabelSchema),
});

export const SuggestResult = t.Object({ items: t.Array(FoodRef) });

export const SuggestQuery = queryStrings(
  t.Object({
    q: t.String({
      minLength: SUGGEST_QUERY_MIN_CODE_POINTS,
      maxLength: SUGGEST_QUERY_MAX_CODE_POINTS,
      description: `What has been typed so far: ${SUGGEST_QUERY_MIN_CODE_POINTS} to ${SUGGEST_QUERY_MAX_CODE_POINTS} characters after trimming; the last word may be a prefix, and typos are forgiven.`,
    }),
    limit: t.Optional(Integer({ minimum: 1, maximum: SUGGEST_LIMIT_MAX, default: SUGGEST_LIMIT_DEFAULT, description: `How many names, 1 to ${SUGGEST_LIMIT_MAX}.` })),
  }),
);


export type AnalyzedLine = typeof AnalyzedLine.static;
export type AnalyzeResult = typeof AnalyzeResult.static;
export type NutrientTotal = typeof NutrientTotal.static;
export type FoodRef = typeof FoodRef.static;
export type SuggestResult = typeof SuggestResult.static;
