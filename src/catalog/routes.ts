import { Elysia, t } from "elysia";
import { ApiError } from "../http/errors";
import { type Admission, type CredentialVerifiers, credentialGuard } from "../http/credential-guard";
import { FoodDetail, FoodGroupList, NutrientList, SearchQuery, SearchResult } from "./model";
import { parseSearchParams } from "./search-params";
import { getFoodDetail, listFoodGroups, listNutrients, parseNutrientFilter, searchFoods } from "./service";
import type { CatalogStore } from "./store";

/** The data routes: every one behind the credential guard. */
export function catalogRoutes(store: CatalogStore, verifiers: CredentialVerifiers, admit: Admission) {
  return new Elysia({ prefix: "/v1" })
    .use(credentialGuard(verifiers, admit))
    .get("/foods", ({ query }) => searchFoods(store, parseSearchParams(query)), {
      query: SearchQuery,
      response: { 200: SearchResult },
      detail: { summary: "Search foods by name and group", tags: ["Catalog"] },
    })
    .get(
      "/foods/:foodNumber",
      ({ params, query }) => {
        const detail = getFoodDetail(store, params.foodNumber, parseNutrientFilter(query.nutrients));
        if (!detail) throw new ApiError(404, "FOOD_NOT_FOUND", `No food has the number '${params.foodNumber.slice(0, 20)}'.`);
        return detail;
      },
      {
        params: t.Object({ foodNumber: t.String() }),
        query: t.Object({ nutrients: t.Optional(t.String({ description: "Comma-separated nutrient numbers, e.g. 203,204" })) }),
        response: { 200: FoodDetail },
        detail: { summary: "One food with its nutrients, portions and footnotes", tags: ["Catalog"] },
      },
    )
    .get("/food-groups", () => listFoodGroups(store), {
      response: { 200: FoodGroupList },
      detail: { summary: "All food groups with their food counts", tags: ["Catalog"] },
    })
    .get("/nutrients", () => listNutrients(store), {
      response: { 200: NutrientList },
      detail: { summary: "All nutrient definitions in SR order", tags: ["Catalog"] },
    });
}
