// The builders as a namespace (see catalog/model.ts).
import * as Type from "@sinclair/typebox";
import { GRAMS_MAX } from "../catalog/model";
import { Integer, queryStrings, unionEnum } from "../platform/http/schema";
import { LABEL_LINES, type LineKey } from "./lines";

/** The label's schemas (decisions §17), for the document: the label route's answer, and an analysis's `label`. */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const NutritionLabelSchema = Type.Object({
  servingSize: Type.Object({
    grams: Type.Number(),
    description: Nullable(Type.String({ description: "The portion's words (`1 cup, chopped`), or null for grams asked for." })),
  }),
  lines: Type.Array(
    Type.Object({
      key: unionEnum(LABEL_LINES.map((line) => line.key) as [LineKey, ...LineKey[]]),
      name: Type.String(),
      number: Nullable(Type.String({ description: "The SR28 nutrient number; null for added sugars, which SR28 does not tell." })),
      amount: Nullable(Type.Number({ description: "Per serving, unrounded; null where the food has no value." })),
      unit: unionEnum(["kcal", "g", "mg", "mcg"]),
      display: Type.String({ description: 'As the label prints it ("3g", "<1g", "140mg", calories as the number alone), or "not available".' }),
      dv: Nullable(Type.Number({ description: "Per cent of the Daily Value, rounded as 21 CFR 101.9 says; null where the label states none." })),
    }),
    { description: `The ${LABEL_LINES.length} lines in label order.` },
  ),
});

const LabelParameters = Type.Object({
  grams: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: GRAMS_MAX, description: `A serving of this many grams (above 0, at most ${GRAMS_MAX}, up to 6 decimals). Not with \`portion\`.` })),
  portion: Type.Optional(Integer({ description: "A serving of the portion with this `seq` (one of the food's `portions`). Not with `grams`." })),
  format: Type.Optional(unionEnum(["json", "svg"], { description: "`svg`: the label drawn as the standard vertical panel (as `Accept: image/svg+xml` asks); `json` by default." })),
});

export const LabelQuery = queryStrings(LabelParameters);
