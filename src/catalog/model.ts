// TypeBox's builders as a namespace, not its `Type` object: the bundler then keeps only the builders used
// (~4 KB), where `Type` brings every one (~43 KB) into the code a start loads (docs/performance.md).
import * as Type from "@sinclair/typebox";
import { Integer, queryStrings, unionEnum } from "../platform/http/schema";

/**
 * The catalog's request limits, declared here with the schemas that show them; the checks (search-params.ts,
 * amounts.ts, lookup.ts) and the document read them from here.
 */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 90;
export const QUERY_MAX_CHARS = 200;
/** At most this many `nutrient.<number>` filters in one search, on different nutrients. */
export const NUTRIENT_FILTERS_MAX = 5;
/** The most grams an amount may scale to (amounts.ts). */
export const GRAMS_MAX = 10_000;
/** The most food numbers one lookup may ask for (lookup.ts). */
export const LOOKUP_MAX_FOODS = 50;

/** A range's bound as the document shows it (search-params.ts checks the same). */
const BOUND = "[+-]?(\\d+(\\.\\d+)?|\\.\\d+)";

/** Request and response schemas of the catalog routes; their static types are the service's types. */

/** The search parameters as the document shows them. An empty value (`page=`) counts as absent. */
const SearchParameters = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: QUERY_MAX_CHARS,
      description: `Every white-space separated term must occur in the food name (substring, any case). At most ${QUERY_MAX_CHARS} characters after trimming.`,
    }),
  ),
  group: Type.Optional(Type.String({ description: "Food group code from /v1/food-groups, e.g. 0100." })),
  page: Type.Optional(Integer({ minimum: 1, default: 1, description: "Page number from 1; out-of-range values are clamped." })),
  limit: Type.Optional(
    Integer({
      minimum: 1,
      maximum: PAGE_SIZE_MAX,
      default: PAGE_SIZE_DEFAULT,
      description: `Items per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}); out-of-range values are clamped.`,
    }),
  ),
  sort: Type.Optional(
    Type.String({
      pattern: "^(relevance|foodNumber|name|nutrient\\.\\d{3})$",
      description:
        "`relevance` (the default with `q`), `foodNumber` (the default without), `name` (ignoring case and diacritics) or `nutrient.<number>` (its value per 100 g; foods without a value come last in either order). Ties by food number ascending. An unknown nutrient number is 400 UNKNOWN_NUTRIENT.",
      examples: ["nutrient.203"],
    }),
  ),
  order: Type.Optional(
    unionEnum(["asc", "desc"], {
      description: "`desc` is the default for a nutrient sort, `asc` otherwise; `relevance` ignores it.",
    }),
  ),
  "nutrient.203": Type.Optional(
    Type.String({
      pattern: `^(${BOUND}\\.\\.(${BOUND})?|\\.\\.${BOUND})$`,
      description: `Stands for \`nutrient.<number>\` with any number from /v1/nutrients (203 is protein): \`<min>..<max>\`, inclusive, in the nutrient's unit per 100 g, either bound optional (\`20..\`, \`..140\`, \`100..250\`). Foods without a value for it do not match. Up to ${NUTRIENT_FILTERS_MAX}, on different nutrients. An unknown number is 400 UNKNOWN_NUTRIENT; a malformed range (\`20\`, \`..\`, \`5..1\`), a nutrient named twice or more than ${NUTRIENT_FILTERS_MAX} is 400 VALIDATION_ERROR. With a filter or a nutrient sort, each item carries \`nutrients\` for exactly the nutrients named.`,
      examples: ["20.."],
    }),
  ),
});

/** The same as it arrives: strings, parsed and clamped by search-params.ts with its own messages. */
export const SearchQuery = queryStrings(SearchParameters);

export const FoodSearchItem = Type.Object({
  foodNumber: Type.String(),
  name: Type.String(),
  nutrients: Type.Optional(
    Type.Array(Type.Object({ number: Type.String(), value: Type.Union([Type.Number(), Type.Null()]), unit: Type.String() }), {
      description: "Only with a nutrient filter or sort: the sort's nutrient, then the filters' in the order given, each once; `value` per 100 g, null where the food has none.",
    }),
  ),
});

export const SearchResult = Type.Object({
  items: Type.Array(FoodSearchItem),
  total: Integer(),
  page: Integer(),
  limit: Integer(),
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const FoodNutrient = Type.Object({
  number: Type.String(),
  name: Type.String(),
  tag: Nullable(Type.String()),
  unit: Type.String(),
  value: Type.Number(),
  dataPoints: Integer(),
  stdError: Nullable(Type.Number()),
  derivation: Nullable(Type.Object({ code: Type.String(), description: Type.String() })),
});

const FoodPortion = Type.Object({ seq: Integer(), amount: Type.Number(), description: Type.String(), grams: Type.Number() });

/** What the nutrient values are for: 100 g by default, or the grams asked for (`?grams=`, `?portion=`). */
const AmountBasis = Type.Object({
  grams: Type.Number({ description: "Grams of edible portion the values are for." }),
  portion: Nullable(FoodPortion),
});

export const FoodDetail = Type.Object({
  foodNumber: Type.String(),
  name: Type.String(),
  shortName: Type.String(),
  commonName: Nullable(Type.String()),
  manufacturer: Nullable(Type.String()),
  scientificName: Nullable(Type.String()),
  group: Type.Object({ code: Type.String(), name: Type.String() }),
  refuse: Type.Object({ percent: Nullable(Type.Number()), description: Nullable(Type.String()) }),
  factors: Type.Object({
    nitrogen: Nullable(Type.Number()),
    protein: Nullable(Type.Number()),
    fat: Nullable(Type.Number()),
    carbohydrate: Nullable(Type.Number()),
  }),
  basis: AmountBasis,
  nutrients: Type.Array(FoodNutrient),
  portions: Type.Array(FoodPortion),
  footnotes: Type.Array(
    Type.Object({ number: Type.String(), type: Type.String(), nutrientNumber: Nullable(Type.String()), text: Type.String() }),
  ),
});

/** A detail's parameters as the document shows them; they arrive as strings, parsed by service.ts and amounts.ts. */
const DetailParameters = Type.Object({
  nutrients: Type.Optional(Type.String({ description: "Comma-separated nutrient numbers, e.g. 203,204; unknown numbers are ignored." })),
  grams: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: GRAMS_MAX,
      description: `Scale every nutrient value to this many grams (above 0, at most ${GRAMS_MAX}, up to 6 decimals). Not with \`portion\`.`,
    }),
  ),
  portion: Type.Optional(Integer({ description: "Scale every nutrient value to the portion with this `seq` (one of the food's `portions`). Not with `grams`." })),
});

export const DetailQuery = queryStrings(DetailParameters);

export const LookupBody = Type.Object({
  foodNumbers: Type.Array(Type.String({ description: "A food number (NDB_No, 5 digits); anything else is listed in `notFound`." }), {
    minItems: 1,
    maxItems: LOOKUP_MAX_FOODS,
    description: `1 to ${LOOKUP_MAX_FOODS} food numbers; a repeated one is answered once. Each distinct one costs a unit of quota.`,
  }),
  nutrients: Type.Optional(Type.Array(Type.String(), { description: "Only these nutrient numbers in every item (unknown ones are ignored)." })),
  grams: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, maximum: GRAMS_MAX, description: `Scale every item's nutrient values to this many grams (at most ${GRAMS_MAX}, up to 6 decimals).` }),
  ),
});

export const LookupResult = Type.Object({
  items: Type.Array(FoodDetail, { description: "The details of the foods found, in the order asked, each once." }),
  notFound: Type.Array(Type.String(), { description: "The food numbers asked for that are not foods, in the order asked, each once." }),
});

export const FoodGroupList = Type.Object({
  items: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), foodCount: Integer() })),
});

export const NutrientList = Type.Object({
  items: Type.Array(
    Type.Object({
      number: Type.String(),
      name: Type.String(),
      unit: Type.String(),
      tag: Nullable(Type.String()),
      decimals: Integer(),
      order: Integer(),
    }),
  ),
});

export type SearchQuery = typeof SearchQuery.static;
export type FoodSearchItem = typeof FoodSearchItem.static;
export type SearchResult = typeof SearchResult.static;
export type FoodDetail = typeof FoodDetail.static;
export type FoodGroupList = typeof FoodGroupList.static;
export type NutrientList = typeof NutrientList.static;
export type LookupBody = typeof LookupBody.static;
