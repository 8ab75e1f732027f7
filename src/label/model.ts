import { t } from "elysia";
import { GRAMS_MAX } from "../catalog/model";
import { Integer, queryStrings } from "../platform/http/schema";
import { LABEL_LINES, type LineKey } from "./lines";

/** The label's schemas (decisions §17), for the document: the label route's answer, and an analysis's `label`. */

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const NutritionLabelSchema = t.Object({
  servingSize: t.Object({
    grams: t.Number(),
    description: Nullable(t.String({ description: "The portion's words (`1 cup, chopped`), or null for grams asked for." })),
  }),
  lines: t.Array(
    t.Object({
      key: t.UnionEnum(LABEL_LINES.map((line) => line.key) as [LineKey, ...LineKey[]]),
      name: t.String(),
      number: Nullable(t.String({ description: "The SR28 nutrient number; null for added sugars, which SR28 does not tell." })),
      amount: Nullable(t.Number({ description: "Per serving, unrounded; null where the food has no value." })),
      unit: t.UnionEnum(["kcal", "g", "mg", "mcg"]),
      display: t.String({ description: 'As the label prints it ("3g", "<1g", "140mg", calories as the number alone), or "not available".' }),
      dv: Nullable(t.Number({ description: "Per cent of the Daily Value, rounded as 21 CFR 101.9 says; null where the label states none." })),
    }),
    { description: `The ${LABEL_LINES.length} lines in label order.` },
  ),
});

const LabelParameters = t.Object({
  grams: t.Optional(t.Number({ exclusiveMinimum: 0, maximum: GRAMS_MAX, description: `A serving of this many grams (above 0, at most ${GRAMS_MAX}, up to 6 decimals). Not with \`portion\`.` })),
  portion: t.Optional(Integer({ description: "A serving of the portion with this `seq` (one of the food's `portions`). Not with `grams`." })),
  format: t.Optional(t.UnionEnum(["json", "svg"], { description: "`svg`: the label drawn as the standard vertical panel (as `Accept: image/svg+xml` asks); `json` by default." })),
});

export const LabelQuery = queryStrings(LabelParameters);
