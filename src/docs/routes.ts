import { Elysia } from "elysia";
import type { Config } from "../platform/config/config";
import type { Route } from "../platform/http/route";
import { CONTENT_TYPES, embeddedFileRoutes, pageHeaders } from "../platform/http/static-file";
import { SERVICE_VERSION } from "../platform/version";
import { buildOpenApiDocument } from "./openapi";
import type { ErrorRows } from "./operations";
import page from "./index.html" with { type: "file" };
// Scalar's self-contained bundle, served from the binary instead of the public CDN the plugin defaults to;
// embedded gzip-compressed by build.sh.
import scalarJsGzip from "../../dist/web/scalar.js.gz" with { type: "file" };

/**
 * Scalar injects its styles as <style> elements, hence 'unsafe-inline' for styles (never for scripts).
 * `connect-src 'self'` lets it load the document and send "try it" requests to this API, nowhere else.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * `/docs` (the API reference page) and `/openapi/json` (the OpenAPI document of every API route). `routes`:
 * the app's route table, which these routes are part of (so asked for when the document is first built).
 */
export function docsRoutes(config: Pick<Config, "baseUrl" | "freeLimit">, errors: ErrorRows, routes: () => readonly Route[]) {
  // Built on first request; routes do not change while serving.
  let document: Record<string, unknown> | undefined;
  return new Elysia()
    .get(
      "/openapi/json",
      () => (document ??= buildOpenApiDocument(routes(), { serverUrl: config.baseUrl.origin, version: SERVICE_VERSION, freeLimit: config.freeLimit, errors })),
      { detail: { hide: true } },
    )
    .use(
      embeddedFileRoutes({
        "/docs": { path: page, contentType: CONTENT_TYPES.html, headers: pageHeaders(DOCS_CSP) },
        "/docs/scalar.js": { path: scalarJsGzip, contentType: CONTENT_TYPES.js, gzipped: true },
      }),
    );
}
