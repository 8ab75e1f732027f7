import { t } from "elysia";
import { Integer, queryStrings } from "../platform/http/schema";

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
const SearchParameters = t.Object({
  q: t.Optional(
    t.String({
      maxLength: QUERY_MAX_CHARS,
      description: `Every white-space separated term must occur in the food name (substring, any case). At most ${QUERY_MAX_CHARS} characters after trimming.`,
    }),
  ),
  group: t.Optional(t.String({ description: "Food group code from /v1/food-groups, e.g. 0100." })),
  page: t.Optional(Integer({ minimum: 1, default: 1, description: "Page number from 1; out-of-range values are clamped." })),
  limit: t.Optional(
    Integer({
      minimum: 1,
      maximum: PAGE_SIZE_MAX,
      default: PAGE_SIZE_DEFAULT,
      description: `Items per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}); out-of-range values are clamped.`,
    }),
  ),
  sort: t.Optional(
    t.String({
      pattern: "^(relevance|foodNumber|name|nutrient\\.\\d{3})$",
      description:
        "`relevance` (the default with `q`), `foodNumber` (the default without), `name` (ignoring case and diacritics) or `nutrient.<number>` (its value per 100 g; foods without a value come last in either order). Ties by food number ascending. An unknown nutrient number is 400 UNKNOWN_NUTRIENT.",
      examples: ["nutrient.203"],
    }),
  ),
  order: t.Optional(
    t.UnionEnum(["asc", "desc"], {
      description: "`desc` is the default for a nutrient sort, `asc` otherwise; `relevance` ignores it.",
    }),
  ),
  "nutrient.203": t.Optional(
    t.String({
      pattern: `^(${BOUND}\\.\\.(${BOUND})?|\\.\\.${BOUND})$`,
      description: `Stands for \`nutrient.<number>\` with any number from /v1/nutrients (203 is protein): \`<min>..<max>\`, inclusive, in the nutrient's unit per 100 g, either bound optional (\`20..\`, \`..140\`, \`100..250\`). Foods without a value for it do not match. Up to ${NUTRIENT_FILTERS_MAX}, on different nutrients. An unknown number is 400 UNKNOWN_NUTRIENT; a malformed range (\`20\`, \`..\`, \`5..1\`), a nutrient named twice or more than ${NUTRIENT_FILTERS_MAX} is 400 VALIDATION_ERROR. With a filter or a nutrient sort, each item carries \`nutrients\` for exactly the nutrients named.`,
      examples: ["20.."],
    }),
  ),
});

/** The same as it arrives: strings, parsed and clamped by search-params.ts with its own messages. */
export const SearchQuery = queryStrings(SearchParameters);

export const FoodSearchItem = t.Object({
  foodNumber: t.String(),
  name: t.String(),
  nutrients: t.Optional(
    t.Array(t.Object({ number: t.String(), value: t.Union([t.Number(), t.Null()]), unit: t.String() }), {
      description: "Only with a nutrient filter or sort: the sort's nutrient, then the filters' in the order given, each once; `value` per 100 g, null where the food has none.",
    }),
  ),
});

export const SearchResult = t.Object({
  items: t.Array(FoodSearchItem),
  total: Integer(),
  page: Integer(),
  limit: Integer(),
});

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

const FoodNutrient = t.Object({
  number: t.String(),
  name: t.String(),
  tag: Nullable(t.String()),
  unit: t.String(),
  value: t.Number(),
  dataPoints: Integer(),
  stdError: Nullable(t.Number()),
  derivation: Nullable(t.Object({ code: t.String(), description: t.String() })),
});

const FoodPortion = t.Object({ seq: Integer(), amount: t.Number(), description: t.String(), grams: t.Number() });

/** What the nutrient values are for: 100 g by default, or the grams asked for (`?grams=`, `?portion=`). */
const AmountBasis = t.Object({
  grams: t.Number({ description: "Grams of edible portion the values are for." }),
  portion: Nullable(FoodPortion),
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
  basis: AmountBasis,
  nutrients: t.Array(FoodNutrient),
  portions: t.Array(FoodPortion),
  footnotes: t.Array(
    t.Object({ number: t.String(), type: t.String(), nutrientNumber: Nullable(t.String()), text: t.String() }),
  ),
});

/** A detail's parameters as the document shows them; they arrive as strings, parsed by service.ts and amounts.ts. */
const DetailParameters = t.Object({
  nutrients: t.Optional(t.String({ description: "Comma-separated nutrient numbers, e.g. 203,204; unknown numbers are ignored." })),
  grams: t.Optional(
    t.Number({
      exclusiveMinimum: 0,
      maximum: GRAMS_MAX,
      description: `Scale every nutrient value to this many grams (above 0, at most ${GRAMS_MAX}, up to 6 decimals). Not with \`portion\`.`,
    }),
  ),
  portion: t.Optional(Integer({ description: "Scale every nutrient value to the portion with this `seq` (one of the food's `portions`). Not with `grams`." })),
});

export const DetailQuery = queryStrings(DetailParameters);

export const LookupBody = t.Object({
  foodNumbers: t.Array(t.String({ description: "A food number (NDB_No, 5 digits); anything else is listed in `notFound`." }), {
    minItems: 1,
    maxItems: LOOKUP_MAX_FOODS,
    description: `1 to ${LOOKUP_MAX_FOODS} food numbers; a repeated one is answered once. Each distinct one costs a unit of quota.`,
  }),
  nutrients: t.Optional(t.Array(t.String(), { description: "Only these nutrient numbers in every item (unknown ones are ignored)." })),
  grams: t.Optional(
    t.Number({ exclusiveMinimum: 0, maximum: GRAMS_MAX, description: `Scale every item's nutrient values to this many grams (at most ${GRAMS_MAX}, up to 6 decimals).` }),
  ),
});

export const LookupResult = t.Object({
  items: t.Array(FoodDetail, { description: "The details of the foods found, in the order asked, each once." }),
  notFound: t.Array(t.String(), { description: "The food numbers asked for that are not foods, in the order asked, each once." }),
});

export const FoodGroupList = t.Object({
  items: t.Array(t.Object({ code: t.String(), name: t.String(), foodCount: Integer() })),
});

export const NutrientList = t.Object({
  items: t.Array(
    t.Object({
      number: t.String(),
      name: t.String(),
      unit: t.String(),
      tag: Nullable(t.String()),
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
