import type { CatalogStore } from "../catalog/store";
import { JSON_CONTENT_TYPE, SECURITY_HEADERS } from "../platform/http/errors";
import { CONTENT_TYPES, embeddedFileRoutes, pageHeaders } from "../platform/http/static-file";
// The dashboard's script, bundled from web/main.ts by build.sh before the binary is compiled.
import dashboardJs from "../../dist/web/dashboard.js" with { type: "file" };
import page from "./web/index.html" with { type: "file" };
import dashboardCss from "./web/styles.css" with { type: "file" };
// The ALTCHA widget's "external" build: styles and the proof-of-work worker as separate files instead of
// inline styles and a blob: worker, so the page's policy can stay at 'self' for all three.
import altchaJs from "../../node_modules/altcha/dist/external/altcha.min.js" with { type: "file" };
import altchaCss from "altcha/altcha.css" with { type: "file" };
import altchaWorker from "altcha/workers/pbkdf2" with { type: "file" };

/**
 * Only this origin's own files and API. No inline script or style, no eval; `worker-src 'self'` for the
 * widget's proof-of-work worker, `img-src data:` for the empty favicon. `frame-ancestors 'none'` keeps the
 * sign-in form out of other sites' frames.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "worker-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * `/`: the dashboard (accounts, keys, trial token, search playground) and its files. The playground's
 * food-group and nutrient lists come with the page (`/assets/food-groups.json`, `/assets/nutrients.json`,
 * no credential): loading them must not spend one of a trial token's 30 requests before the first search.
 * Group names and counts, nutrient names and units, are what `/v1/meta` and the README say of the dataset
 * anyway; foods and nutrient values stay behind the credential.
 */
export function dashboardRoutes(catalog: Pick<CatalogStore, "foodGroups" | "nutrients">) {
  let groupsJson: string | undefined;
  let nutrientsJson: string | undefined;
  const assetHeaders = { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-cache", ...SECURITY_HEADERS };
  return embeddedFileRoutes({
    "/": { path: page, contentType: CONTENT_TYPES.html, headers: pageHeaders(DASHBOARD_CSP) },
    "/assets/dashboard.js": { path: dashboardJs, contentType: CONTENT_TYPES.js },
    "/assets/dashboard.css": { path: dashboardCss, contentType: CONTENT_TYPES.css },
    "/assets/altcha.js": { path: altchaJs, contentType: CONTENT_TYPES.js },
    "/assets/altcha.css": { path: altchaCss, contentType: CONTENT_TYPES.css },
    "/assets/altcha-pbkdf2-worker.js": { path: altchaWorker, contentType: CONTENT_TYPES.js },
  })
    .get("/assets/food-groups.json", () => new Response((groupsJson ??= JSON.stringify({ items: catalog.foodGroups() })), { headers: assetHeaders }), {
      detail: { hide: true },
    })
    // The playground's sort and filter lists, for the same reason: nutrient names and units, no values.
    .get(
      "/assets/nutrients.json",
      () =>
        new Response((nutrientsJson ??= JSON.stringify({ items: catalog.nutrients().map(({ number, name, unit }) => ({ number, name, unit })) })), {
          headers: assetHeaders,
        }),
      { detail: { hide: true } },
    );
}
