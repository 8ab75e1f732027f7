import { Elysia, t } from "elysia";
import { STATE_ERROR } from "../docs/operations";
import { type CredentialGuard, guardedJson } from "../http/credential-guard";
import { apiError } from "../http/error-catalog";
import { type DirectRouteSpec, directRoutes, mountRoutes } from "../http/route-table";
import { FoodDetail, FoodGroupList, NutrientList, SearchQuery, SearchResult } from "./model";
import { PAGE_SIZE_MAX } from "./search-params";
import { createFoodDetails, createFoodSearch, listFoodGroups, listNutrients, parseNutrientFilter } from "./service";
import type { CatalogStore } from "./store";

/** What every data route can answer besides its own errors: the guard's and the quota's. */
const DATA_ERRORS = ["UNAUTHORIZED", "RATE_LIMITED", "TRIAL_QUOTA_EXHAUSTED", STATE_ERROR] as const;

/**
 * The data routes, every one behind the credential guard. They are direct routes: answered before Elysia,
 * and mounted on it too for the OpenAPI document (src/http/route-table.ts).
 */
export function catalogRoutes(store: CatalogStore, guard: CredentialGuard) {
  const foodSearch = createFoodSearch(store);
  const details = createFoodDetails(store);
  // Immutable while served: serialised once.
  let groupsJson: string | undefined;
  let nutrientsJson: string | undefined;

  const routes: DirectRouteSpec[] = [
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
      handle: guardedJson(guard, ({ search }) => foodSearch.jsonForQuery(search)),
    },
    {
      path: "/v1/foods/:foodNumber",
      query: t.Object({ nutrients: t.Optional(t.String({ description: "Comma-separated nutrient numbers, e.g. 203,204" })) }),
      response: { 200: FoodDetail },
      summary: "One food with its nutrients, portions and footnotes",
      description:
        "Nutrient values are per 100 g of edible portion, in SR order. A 404 counts against the quota too. Sent zstd-compressed (`Content-Encoding: zstd`, ~2 KB instead of ~15 KB) to clients whose `Accept-Encoding` lists zstd.",
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: [...DATA_ERRORS, "FOOD_NOT_FOUND"],
      examples: {
        "200": {
          foodNumber: "01001",
          name: "Butter, salted",
          group: { code: "0100", name: "Dairy and Egg Products" },
          nutrients: [{ number: "208", name: "Energy", tag: "ENERC_KCAL", unit: "kcal", value: 717, dataPoints: 0, stdError: null, derivation: { code: "NC", description: "Nutrient that is based on other nutrient/s; calculated rather than analyzed" } }],
        },
      },
      handle: guardedJson(guard, ({ param = "", search }) => {
        const nutrients = search === "" ? undefined : parseNutrientFilter(new URLSearchParams(search).get("nutrients") ?? undefined);
        const json = details.answer(param, nutrients);
        if (json === null) throw apiError("FOOD_NOT_FOUND", param);
        return json;
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
      handle: guardedJson(guard, () => (groupsJson ??= JSON.stringify(listFoodGroups(store)))),
    },
    {
      path: "/v1/nutrients",
      response: { 200: NutrientList },
      summary: "All nutrient definitions in SR order",
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: DATA_ERRORS,
      examples: { "200": { items: [{ number: "203", name: "Protein", unit: "g", tag: "PROCNT", decimals: 2, order: 600 }] } },
      handle: guardedJson(guard, () => (nutrientsJson ??= JSON.stringify(listNutrients(store)))),
    },
  ];

  return { direct: directRoutes(routes), documented: mountRoutes(new Elysia(), routes) };
}
