import type { HTMLBundle } from "bun";
import { Elysia } from "elysia";
import { chooseCoding } from "./accept-encoding";

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
  /**
   * The embedded file is the content gzip-compressed (a large file, smaller in the binary): sent so to a
   * client that accepts gzip, inflated once for one that does not.
   */
  gzipped?: true;
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
    const representations = file.gzipped ? gzippedFile(file.path as string) : plainFile(file.path as string);
    app.get(
      route,
      async ({ request }) => {
        const { body, etag, headers: own } = await representations(request.headers.get("accept-encoding"));
        const headers = {
          "content-type": file.contentType,
          "cache-control": "no-cache",
          etag,
          "x-content-type-options": "nosniff",
          ...own,
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

interface Representation {
  body: Blob | Uint8Array;
  etag: string;
  headers: Readonly<Record<string, string>>;
}

const tagOf = (bytes: ArrayBuffer | Uint8Array, suffix = "") => `"${Bun.hash(bytes).toString(36)}${suffix}"`;

function plainFile(path: string) {
  let etag: string | undefined;
  return async (): Promise<Representation> => {
    const body = Bun.file(path);
    etag ??= tagOf(await body.arrayBuffer());
    return { body, etag, headers: {} };
  };
}

/**
 * Each coding is its own representation, with its own strong ETag (RFC 9110 §8.8.3). The inflated copy is
 * made only for a client that takes no gzip (rare: every browser does).
 */
function gzippedFile(path: string) {
  const vary = { vary: "Accept-Encoding" };
  let compressed: Uint8Array<ArrayBuffer> | undefined;
  let gzip: Representation | undefined;
  let identity: Representation | undefined;
  return async (acceptEncoding: string | null): Promise<Representation> => {
    compressed ??= await Bun.file(path).bytes();
    gzip ??= { body: compressed, etag: tagOf(compressed, "-gzip"), headers: { ...vary, "content-encoding": "gzip" } };
    if (chooseCoding(acceptEncoding, ["gzip"]) === "gzip") return gzip;
    if (!identity) {
      const inflated = Bun.gunzipSync(compressed);
      identity = { body: inflated, etag: tagOf(inflated), headers: vary };
    }
    return identity;
  };
}
