import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DASHBOARD_CSP } from "../../src/dashboard/routes";
import { DOCS_CSP } from "../../src/docs/routes";
import { startServer, type RunningServer } from "../helpers/binary";
import { ROOT } from "../helpers/paths";

/**
 * The pages and their files come out of the compiled binary itself: it runs from an empty temporary
 * directory, and every file is byte for byte the one it was built from.
 */
const FILES: [route: string, source: string, contentType: string][] = [
  ["/", "src/dashboard/web/index.html", "text/html; charset=utf-8"],
  ["/assets/dashboard.js", "dist/web/dashboard.js", "text/javascript; charset=utf-8"],
  ["/assets/dashboard.css", "src/dashboard/web/styles.css", "text/css; charset=utf-8"],
  ["/assets/altcha.js", "node_modules/altcha/dist/external/altcha.min.js", "text/javascript; charset=utf-8"],
  ["/assets/altcha.css", "node_modules/altcha/dist/external/altcha.css", "text/css; charset=utf-8"],
  ["/assets/altcha-pbkdf2-worker.js", "node_modules/altcha/dist/workers/pbkdf2.js", "text/javascript; charset=utf-8"],
  ["/docs", "src/docs/index.html", "text/html; charset=utf-8"],
  ["/docs/scalar.js", "node_modules/@scalar/api-reference/dist/browser/standalone.js", "text/javascript; charset=utf-8"],
];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("embedded pages and files", () => {
  test("each is served by the binary from another directory, byte for byte, without a credential", async () => {
    for (const [route, source, contentType] of FILES) {
      const response = await fetch(`${server.url}${route}`);
      expect([route, response.status, response.headers.get("content-type")]).toEqual([route, 200, contentType]);
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(ROOT, source)))).toBe(true);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("revalidation: an unchanged file is a 304 without a body", async () => {
    const first = await fetch(`${server.url}/docs/scalar.js`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-z]+(-gzip)?"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await fetch(`${server.url}/docs/scalar.js`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("Scalar's bundle is embedded gzip-compressed: gzip for a client that takes it, the same bytes inflated for one that does not", async () => {
    const source = readFileSync(join(ROOT, "node_modules/@scalar/api-reference/dist/browser/standalone.js"));
    const raw = (acceptEncoding: string) =>
      fetch(`${server.url}/docs/scalar.js`, { headers: { "accept-encoding": acceptEncoding }, decompress: false } as RequestInit);
    const gzipped = await raw("gzip, deflate, br, zstd");
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("vary")).toBe("Accept-Encoding");
    const compressed = new Uint8Array(await gzipped.arrayBuffer());
    expect(compressed.length).toBeLessThan(source.length / 2);
    expect(Buffer.from(Bun.gunzipSync(compressed)).equals(source)).toBe(true);

    for (const refuses of ["identity", "br", "gzip;q=0"]) {
      const plain = await raw(refuses);
      expect([refuses, plain.headers.get("content-encoding")]).toEqual([refuses, null]);
      expect(Buffer.from(await plain.arrayBuffer()).equals(source)).toBe(true);
      // Two representations, two strong tags: a cached gzip body is never revalidated as the plain one.
      expect(plain.headers.get("etag")).not.toBe(gzipped.headers.get("etag"));
    }
  });

  test("the pages carry their policies and load nothing from a CDN", async () => {
    const dashboard = await fetch(`${server.url}/`);
    expect(dashboard.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
    expect(dashboard.headers.get("referrer-policy")).toBe("same-origin");
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.headers.get("content-security-policy")).toBe(DOCS_CSP);
    for (const html of [await dashboard.text(), await docs.text()]) expect(html).not.toMatch(/(src|href)="https?:/);
  });
});
