import { Elysia } from "elysia";
import type { Config } from "../platform/config/config";
import type { CatalogStore } from "../catalog/store";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../catalog/model";
import { JSON_CONTENT_TYPE, SECURITY_HEADERS } from "../platform/http/errors";
import { isPromise, type MaybePromise } from "../platform/maybe-promise";
import type { DirectRouteSpec } from "../platform/http/route-table";
import { operation } from "../platform/http/route-notes";
import { MetaResponse } from "./model";
import { TRIAL_TOKEN_LIFETIME_SECONDS, TRIAL_TOKEN_REQUESTS } from "../trial/token";
import { SERVICE_NAME, SERVICE_VERSION } from "../platform/version";

/**
 * Public routes: what this service is and serves, and whether it can answer. `/healthz` is a direct route
 * (answered before Elysia): load balancers ask it constantly, and a start is measured to its first 200,
 * which would otherwise include composing the Elysia pipeline for it (~8 ms).
 */
export function metaRoutes(deps: { config: Config; catalog: CatalogStore; pingState: () => MaybePromise<void>; stateWritable: () => MaybePromise<boolean> }) {
  const { config, catalog } = deps;
  const count = (name: string) => Number(catalog.info()[`count.${name}`] ?? 0);
  const answer = (status: "ok" | "unavailable") =>
    new Response(JSON.stringify({ status }), { status: status === "ok" ? 200 : 503, headers: { "content-type": JSON_CONTENT_TYPE, ...SECURITY_HEADERS } });
  const unavailable = () => answer("unavailable");
  // 503 while writes fail (a full disk, a read-only file system), not only when nothing answers.
  const answerFor = (writable: boolean) => answer(writable ? "ok" : "unavailable");
  const writable = () => {
    const ok = deps.stateWritable();
    return isPromise(ok) ? ok.then(answerFor) : answerFor(ok);
  };
  const healthz = (): MaybePromise<Response> => {
    try {
      catalog.ping();
      const pinged = deps.pingState();
      const answered = isPromise(pinged) ? pinged.then(writable) : writable();
      return isPromise(answered) ? answered.catch(unavailable) : answered;
    } catch {
      return unavailable();
    }
  };
  const fast: DirectRouteSpec[] = [
    {
      path: "/healthz",
      summary: "Health check: both databases answer a query",
      tags: ["Public"],
      credential: "none",
      errors: [],
      responses: {
        "200": { description: "Both databases answer a query", schema: HEALTH_SCHEMA, example: { status: "ok" } },
        "503": { description: "A database does not answer", schema: HEALTH_SCHEMA, example: { status: "unavailable" } },
      },
      handle: healthz,
    },
  ];
  const documented = new Elysia()
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
  return { direct: fast, documented };
}

const HEALTH_SCHEMA = { type: "object", required: ["status"], properties: { status: { enum: ["ok", "unavailable"], type: "string" } } };
