import { Elysia, t } from "elysia";
import { type CredentialGuard, guardedJson } from "../http/credential-guard";
import { type DirectRoute, splitUrl } from "../http/direct-routes";
import { apiError } from "../http/error-catalog";
import { FoodDetail, FoodGroupList, NutrientList, SearchQuery, SearchResult } from "./model";
import { createFoodDetails, createFoodSearch, listFoodGroups, listNutrients, parseNutrientFilter } from "./service";
import type { CatalogStore } from "./store";

/**
 * The data routes, every one behind the credential guard. They are answered as direct routes (before
 * Elysia); the Elysia copies carry the schemas for the OpenAPI document and answer what the direct ones
 * do not (HEAD), with the same handlers.
 */
export function catalogRoutes(store: CatalogStore, guard: CredentialGuard) {
  const foodSearch = createFoodSearch(store);
  const details = createFoodDetails(store);
  // Immutable while served: serialised once.
  let groupsJson: string | undefined;
  let nutrientsJson: string | undefined;

  const search = guardedJson(guard, ({ search }) => foodSearch.jsonForQuery(search));
  const detail = guardedJson(guard, ({ param = "", search }) => {
    const nutrients = search === "" ? undefined : parseNutrientFilter(new URLSearchParams(search).get("nutrients") ?? undefined);
    const json = details.answer(param, nutrients);
    if (json === null) throw apiError("FOOD_NOT_FOUND", param);
    return json;
  });
  const groups = guardedJson(guard, () => (groupsJson ??= JSON.stringify(listFoodGroups(store))));
  const nutrients = guardedJson(guard, () => (nutrientsJson ??= JSON.stringify(listNutrients(store))));

  const direct: DirectRoute[] = [
    { path: "/v1/foods", handle: search },
    { path: "/v1/foods", param: true, handle: detail },
    { path: "/v1/food-groups", handle: groups },
    { path: "/v1/nutrients", handle: nutrients },
  ];

  const documented = new Elysia({ prefix: "/v1" })
    .get("/foods", ({ request }) => search(request, { search: splitUrl(request.url).search }), {
      query: SearchQuery,
      response: { 200: SearchResult },
      detail: { summary: "Search foods by name and group", tags: ["Catalog"] },
    })
    .get("/foods/:foodNumber", ({ request, params }) => detail(request, { search: splitUrl(request.url).search, param: params.foodNumber }), {
      params: t.Object({ foodNumber: t.String() }),
      query: t.Object({ nutrients: t.Optional(t.String({ description: "Comma-separated nutrient numbers, e.g. 203,204" })) }),
      response: { 200: FoodDetail },
      detail: {
        summary: "One food with its nutrients, portions and footnotes",
        description: "Sent zstd-compressed (`Content-Encoding: zstd`, ~2 KB instead of ~15 KB) to clients whose `Accept-Encoding` lists zstd.",
        tags: ["Catalog"],
      },
    })
    .get("/food-groups", ({ request }) => groups(request, { search: "" }), {
      response: { 200: FoodGroupList },
      detail: { summary: "All food groups with their food counts", tags: ["Catalog"] },
    })
    .get("/nutrients", ({ request }) => nutrients(request, { search: "" }), {
      response: { 200: NutrientList },
      detail: { summary: "All nutrient definitions in SR order", tags: ["Catalog"] },
    });

  return { direct, documented };
}
