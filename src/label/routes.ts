import { DATA_ERRORS } from "../catalog/routes";
import { apiError } from "../catalog/errors";
import type { CatalogStore } from "../catalog/store";
import { type CredentialGuard, guardedRepresentation } from "../platform/http/credential-guard";
import type { Representation } from "../platform/http/cached-response";
import type { DirectRouteSpec } from "../platform/http/route-table";
import { JSON_CONTENT_TYPE } from "../platform/http/errors";
import { LabelQuery, NutritionLabelSchema } from "./model";
import { createFoodLabels } from "./service";
import { labelSvg } from "./svg";

const SVG_CONTENT_TYPE = "image/svg+xml";

/** The label route (decisions §17): behind the credential guard, cached as a detail is, JSON or SVG. */
export function labelRoutes(store: CatalogStore, guard: CredentialGuard): DirectRouteSpec[] {
  const labels = createFoodLabels(store);
  return [
    {
      path: "/v1/foods/:foodNumber/label",
      query: LabelQuery,
      response: { 200: NutritionLabelSchema },
      summary: "A food's Nutrition Facts label, as JSON or SVG",
      description:
        "The label of a serving: `grams` or `portion` (not both, checked as on the detail route), else the food's first portion, else 100 g. Lines in label order with the FDA's rounding and %DV (see docs/label.md). `?format=svg` or `Accept: image/svg+xml` (preferred to `application/json`) answers the standard vertical panel as a self-contained SVG (`Content-Type: image/svg+xml`). Cached and compressed as the detail route is; `Vary: Accept-Encoding, Accept`. A 404 counts against the quota too.",
      tags: ["Catalog"],
      credential: "apiKeyOrTrial",
      errors: [...DATA_ERRORS, "FOOD_NOT_FOUND", "VALIDATION_ERROR"],
      examples: {
        "200": {
          servingSize: { grams: 28, description: "1 oz" },
          lines: [{ key: "totalFat", name: "Total Fat", number: "204", amount: 9.2764, unit: "g", display: "9g", dv: 12 }],
        },
      },
      responses: { "200": { description: "OK: the label as JSON, or as SVG", media: { [SVG_CONTENT_TYPE]: { schema: { type: "string", description: "The label drawn as SVG." } } } } },
      handle: guardedRepresentation(guard, (request, { param = "", search }): Representation => {
        const query = new URLSearchParams(search);
        const svg = wantsSvg(query.get("format"), request.headers.get("accept"));
        const label = labels.label(param, { grams: query.get("grams") ?? undefined, portion: query.get("portion") ?? undefined });
        return svg
          ? { body: labelSvg(label), contentType: SVG_CONTENT_TYPE, vary: "Accept" }
          : { body: JSON.stringify(label), contentType: JSON_CONTENT_TYPE, vary: "Accept" };
      }),
    },
  ];
}

/**
 * SVG when `format=svg`, or without `format` when `Accept` names image/svg+xml with a higher quality than
 * application/json (a browser's `image/*` or `*\/*` asks for neither: JSON, the API's default).
 */
function wantsSvg(format: string | null, accept: string | null): boolean {
  if (format === "svg") return true;
  if (format === "json") return false;
  if (format !== null && format !== "") throw apiError("VALIDATION_ERROR", "format", "must be json or svg");
  if (accept === null || !accept.includes(SVG_CONTENT_TYPE)) return false;
  const quality = (media: string) => {
    for (const range of accept.split(",")) {
      const [type, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
      if (type !== media) continue;
      const q = parameters.find((p) => p.startsWith("q="));
      const value = q === undefined ? 1 : Number(q.slice(2));
      return Number.isFinite(value) ? value : 0;
    }
    return 0;
  };
  const svg = quality(SVG_CONTENT_TYPE);
  return svg > 0 && svg > quality("application/json");
}
