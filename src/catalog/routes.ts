import { STATE_ERROR } from "../platform/http/error-catalog";
import { type CredentialGuard, guardedBody, guardedJson } from "../platform/http/credential-guard";
import { type LookupRequest, lookupJsonBytes, parseLookupBody } from "./lookup";
import { apiError } from "./errors";
import type { DirectRouteSpec } from "../platform/http/route-table";
import { perRequestJson, type PreparedJson, preparedJson } from "../platform/http/content-encoding";
import { etagBase } from "../platform/http/etag";
import { DetailQuery, FoodDetail, FoodGroupList, LOOKUP_MAX_FOODS, LookupBody, LookupResult, NutrientList, PAGE_SIZE_MAX, SearchQuery, SearchResult } from "./model";
import { createFoodDetails, createFoodSearch, listFoodGroups, listNutrients, parseDetailQuery } from "./service";
import type { CatalogStore } from "./store";

/** What every data route can answer besides its own errors: the guard's and the quota's. */
export const DATA_ERRORS = ["UNAUTHORIZED", "RATE_LIMITED", "TRIAL_QUOTA_EXHAUSTED", STATE_ERROR] as const;

/**
 * The data routes, every one behind the credential guard. They are direct routes, answered before Elysia
 * (src/platform/http/route-table.ts).
 */
export function catalogRoutes(store: CatalogStore, guard: CredentialGuard): DirectRouteSpec[] {
  const foodSearch = createFoodSearch(store);
  const details = createFoodDetails(store);
  // Immutable while served: serialised (and compressed, per coding asked for) once.
  let groupsJson: PreparedJson | undefined;
  let nutrientsJson: PreparedJson | undefined;

  return [
    {
      path: "/v1/foods",
      query: SearchQuery,
      response: { 200: SearchResult },
      summary: "Search foods by name, group and nutrient values",
      description: `Every term of \`q\` must occur in the name (substring, ignoring case and diacritics). Ordered by relevance with \`q\` (whole words, plain foods and the name's head first), else by food number, or as \`sort\` and \`order\` say. \`nutrient.<number>=<min>..<max>\` filters by a nutrient's value per 100 g (see the \`nutrient.203\` parameter); with a filter or a nutrient sort each item carries \`nutrients\`. Ties always by food number, so paging is exact. \`limit\` is 1 to ${PAGE_SIZE_MAX}.`,
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: [...DATA_ERRORS, "VALIDATION_ERROR", "UNKNOWN_NUTRIENT"],
      examples: { "200": { items: [{ foodNumber: "01009", name: "Cheese, cheddar" }], total: 37, page: 1, limit: 1 } },
      handle: guardedJson(guard, ({ search }) => foodSearch.answerForQuery(search)),
    },
    {
      path: "/v1/foods/:foodNumber",
      query: DetailQuery,
      response: { 200: FoodDetail },
      summary: "One food with its nutrients, portions and footnotes",
      description:
        "Nutrient values are per 100 g of edible portion, in SR order; with `grams` or `portion` (not both) every value is scaled to that amount and rounded to the nutrient's decimals, and `basis` says what the values are for. A 404 counts against the quota too. Sent compressed as stored at build time (`Content-Encoding: zstd` or `gzip`, ~2 KB instead of ~15 KB) to clients whose `Accept-Encoding` allows it, or as `br` (made once per food) to a client that prefers br to both; a selection or scaled answer is compressed for its request (zstd, br or gzip).",
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: [...DATA_ERRORS, "FOOD_NOT_FOUND", "VALIDATION_ERROR"],
      examples: {
        "200": {
          foodNumber: "01001",
          name: "Butter, salted",
          group: { code: "0100", name: "Dairy and Egg Products" },
          nutrients: [{ number: "208", name: "Energy", tag: "ENERC_KCAL", unit: "kcal", value: 717, dataPoints: 0, stdError: null, derivation: { code: "NC", description: "Nutrient that is based on other nutrient/s; calculated rather than analyzed" } }],
        },
      },
      handle: guardedJson(guard, ({ param = "", search }) => {
        const answer = details.answer(param, search === "" ? undefined : parseDetailQuery(search));
        if (answer === null) throw apiError("FOOD_NOT_FOUND", param);
        return answer;
      }),
    },
    {
      path: "/v1/food-groups",
      response: { 200: FoodGroupList },
      summary: "All food groups with their food counts",
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: DATA_ERRORS,
      examples: { "200": { items: [{ code: "0100", name: "Dairy and Egg Products", foodCount: 283 }] } },
      handle: guardedJson(guard, () => (groupsJson ??= prepare(listFoodGroups(store)))),
    },
    {
      path: "/v1/nutrients",
      response: { 200: NutrientList },
      summary: "All nutrient definitions in SR order",
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: DATA_ERRORS,
      examples: { "200": { items: [{ number: "203", name: "Protein", unit: "g", tag: "PROCNT", decimals: 2, order: 600 }] } },
      handle: guardedJson(guard, () => (nutrientsJson ??= prepare(listNutrients(store)))),
    },
    {
      method: "POST",
      path: "/v1/foods/lookup",
      body: LookupBody,
      response: { 200: LookupResult },
      summary: "Several foods' details at once",
      description: `1 to ${LOOKUP_MAX_FOODS} food numbers, each answered once, in the order asked; those that are not foods are listed in \`notFound\`. \`nutrients\` and \`grams\` apply to every item as on the detail route. Costs one unit of quota per distinct food number: with fewer left, 429 and nothing is counted. A body that is too large, not JSON or not a lookup costs one unit. Compressed for its request by \`Accept-Encoding\`; the ETag is the answer's, but \`If-None-Match\` is not honoured on this POST.`,
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: [...DATA_ERRORS, "VALIDATION_ERROR"],
      requestExample: { foodNumbers: ["01001", "01009", "99999"], nutrients: ["203", "208"], grams: 30 },
      examples: { "200": { items: [], notFound: ["99999"] } },
      handle: guardedBody<LookupRequest>(guard, {
        parse: parseLookupBody,
        cost: (lookup) => lookup.foodNumbers.length,
        answer: (lookup) => {
          const json = lookupJsonBytes(lookup.foodNumbers, (n) => details.jsonBytes(n, lookup.view));
          return perRequestJson(json, etagBase(json));
        },
      }),
    },
  ];
}

function prepare(value: unknown): PreparedJson {
  const json = JSON.stringify(value);
  return preparedJson(json, etagBase(json));
}
