import type { HTMLBundle } from "bun";
import { Elysia } from "elysia";

/**
 * Files embedded in the binary (`import path from "..." with { type: "file" }`): under `bun build
 * --compile` the path points into the executable's own file system, from source it is the real file.
 * Either way nothing is read from the network or from beside the binary.
 */
export interface EmbeddedFile {
  /** bun-types types every `.html` import as an HTML bundle; with `type: "file"` it is a path all the same. */
  path: string | HTMLBundle;
  contentType: string;
  /** Extra response headers, e.g. a page's Content-Security-Policy. */
  headers?: Readonly<Record<string, string>>;
}

export const CONTENT_TYPES = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
} as const;

/**
 * An HTML page's own headers: its Content-Security-Policy, and `same-origin` referrers (not `no-referrer`,
 * under which a browser sends `Origin: null` and the CSRF origin check would refuse the page's own POSTs).
 */
export const pageHeaders = (csp: string) => ({ "content-security-policy": csp, "referrer-policy": "same-origin" });

/**
 * GET routes for embedded files, hidden from the OpenAPI document (they are not API routes).
 * `no-cache` plus an ETag: a browser revalidates every load, so a new binary's files are picked up at
 * once, and an unchanged file costs a 304 instead of its body.
 */
export function embeddedFileRoutes(files: Readonly<Record<string, EmbeddedFile>>) {
  const app = new Elysia();
  for (const [route, file] of Object.entries(files)) {
    let etag: string | undefined;
    app.get(
      route,
      async ({ request }) => {
        const body = Bun.file(file.path as string);
        etag ??= `"${Bun.hash(await body.arrayBuffer()).toString(36)}"`;
        const headers = {
          "content-type": file.contentType,
          "cache-control": "no-cache",
          etag,
          "x-content-type-options": "nosniff",
          ...file.headers,
        };
        if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
        return new Response(body, { headers });
      },
      { detail: { hide: true } },
    );
  }
  return app;
}
