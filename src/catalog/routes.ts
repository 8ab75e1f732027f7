import { Elysia, t } from "elysia";
import { ApiError, jsonResponse } from "../http/errors";
import { type Admission, type CredentialVerifiers, credentialGuard } from "../http/credential-guard";
import { FoodDetail, FoodGroupList, NutrientList, SearchQuery, SearchResult } from "./model";
import { parseSearchParams } from "./search-params";
import { createFoodDetails, createFoodSearch, listFoodGroups, listNutrients, parseNutrientFilter } from "./service";
import type { CatalogStore } from "./store";

/** The data routes: every one behind the credential guard. */
export function catalogRoutes(store: CatalogStore, verifiers: CredentialVerifiers, admit: Admission) {
  const searchFoods = createFoodSearch(store);
  const details = createFoodDetails(store);
  // Immutable while served: serialised once.
  let groupsJson: string | undefined;
  let nutrientsJson: string | undefined;
  return new Elysia({ prefix: "/v1" })
    .use(credentialGuard(verifiers, admit))
    .get("/foods", ({ query }) => jsonResponse(searchFoods(parseSearchParams(query)) satisfies SearchResult), {
      query: SearchQuery,
      response: { 200: SearchResult },
      detail: { summary: "Search foods by name and group", tags: ["Catalog"] },
    })
    .get(
      "/foods/:foodNumber",
      ({ params, query }) => {
        const json = details.json(params.foodNumber, parseNutrientFilter(query.nutrients));
        if (json === null) throw new ApiError(404, "FOOD_NOT_FOUND", `No food has the number '${params.foodNumber.slice(0, 20)}'.`);
        // Already serialised (and cached so). Elysia adds the headers the guard set.
        return jsonResponse(json);
      },
      {
        params: t.Object({ foodNumber: t.String() }),
        query: t.Object({ nutrients: t.Optional(t.String({ description: "Comma-separated nutrient numbers, e.g. 203,204" })) }),
        response: { 200: FoodDetail },
        detail: { summary: "One food with its nutrients, portions and footnotes", tags: ["Catalog"] },
      },
    )
    .get("/food-groups", () => jsonResponse((groupsJson ??= JSON.stringify(listFoodGroups(store)))), {
      response: { 200: FoodGroupList },
      detail: { summary: "All food groups with their food counts", tags: ["Catalog"] },
    })
    .get("/nutrients", () => jsonResponse((nutrientsJson ??= JSON.stringify(listNutrients(store)))), {
      response: { 200: NutrientList },
      detail: { summary: "All nutrient definitions in SR order", tags: ["Catalog"] },
    });
}
