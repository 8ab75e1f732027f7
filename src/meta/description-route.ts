import { Elysia } from "elysia";
import type { Config } from "../platform/config/config";
import type { CatalogStore } from "../catalog/store";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../catalog/model";
import { operation } from "../platform/http/route-notes";
import { MetaResponse } from "./model";
import { TRIAL_TOKEN_LIFETIME_SECONDS, TRIAL_TOKEN_REQUESTS } from "../trial/token";
import { SERVICE_NAME, SERVICE_VERSION } from "../platform/version";

/** `/v1/meta`: what this service is and serves, the limits in force, the data's licence and citation. Public. */
export function descriptionRoute(deps: { config: Config; catalog: CatalogStore }) {
  const { config, catalog } = deps;
  const count = (name: string) => Number(catalog.info()[`count.${name}`] ?? 0);
  return new Elysia()
    .get(
      "/v1/meta",
      () => ({
        service: { name: SERVICE_NAME, version: SERVICE_VERSION },
        apiVersion: "v1",
        dataset: {
          name: "USDA National Nutrient Database for Standard Reference",
          release: catalog.info().release ?? "SR28",
          importedAt: catalog.info().importedAt ?? null,
          counts: {
            foods: count("foods"),
            foodGroups: count("foodGroups"),
            nutrients: count("nutrients"),
            nutrientValues: count("nutrientValues"),
            portions: count("portions"),
            footnotes: count("footnotes"),
          },
        },
        limits: {
          pageSize: { default: PAGE_SIZE_DEFAULT, max: PAGE_SIZE_MAX },
          trialToken: { lifetimeSeconds: TRIAL_TOKEN_LIFETIME_SECONDS, requests: TRIAL_TOKEN_REQUESTS },
          freeTier: { requests: config.freeLimit.limit, windowSeconds: config.freeLimit.windowSeconds },
        },
        license:
          "The SR28 data is public domain (U.S. Department of Agriculture, Agricultural Research Service). foodapi itself is MIT licensed.",
        citation:
          "US Department of Agriculture, Agricultural Research Service, Nutrient Data Laboratory. USDA National Nutrient Database for Standard Reference, Release 28. Version Current: September 2015, slightly revised May 2016.",
      }),
      {
        response: { 200: MetaResponse },
        detail: operation({
          summary: "Service, dataset and limits",
          tags: ["Public"],
          credential: "none",
          errors: [],
          responses: { "200": { description: "Service, dataset counts, the limits in force, licence and citation" } },
        }),
      },
    );
}
