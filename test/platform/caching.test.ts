import { rateLimitRemaining as remaining } from "../helpers/http";
import { describe, expect, test } from "bun:test";
import { decodeContent } from "../helpers/content-coding";
import { testAppWithKey } from "../helpers/test-app";

// ETag, 304 and content codings on the data routes (design §9), in process: the bytes as sent.

const suite = testAppWithKey();

const get = (path: string, headers: Record<string, string> = {}) => suite.app.request(path, { headers: { "x-api-key": suite.key, ...headers } });

const DATA_ROUTES = [
  "/v1/foods?q=cheddar",
  "/v1/foods?q=chicken&limit=90",
  "/v1/foods?q=zzzzqqq",
  "/v1/foods/01001",
  "/v1/foods/01009?grams=150",
  "/v1/foods/01009?nutrients=203",
  "/v1/food-groups",
  "/v1/nutrients",
];

describe("ETag and 304", () => {
  test("every 200 of a data route: a strong ETag, Cache-Control private for a day, Vary: Accept-Encoding", async () => {
    for (const path of DATA_ROUTES) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.headers.get("etag")).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
      expect(response.headers.get("cache-control")).toBe("private, max-age=86400");
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
    }
  });

  test("the same answer has the same tag, another answer another; each coding has its own", async () => {
    const tags = new Map<string, string>();
    for (const path of DATA_ROUTES) {
      const first = (await get(path)).headers.get("etag")!;
      expect((await get(path)).headers.get("etag")).toBe(first);
      tags.set(path, first);
    }
    expect(new Set(tags.values()).size).toBe(DATA_ROUTES.length);
    const identity = tags.get("/v1/foods/01001")!;
    const zstd = (await get("/v1/foods/01001", { "accept-encoding": "zstd" })).headers.get("etag");
    expect(zstd).toBe(`${identity.slice(0, -1)}-zstd"`);
  });

  test("If-None-Match that names the answer: 304, no body, ETag and RateLimit headers, and it is counted", async () => {
    for (const path of DATA_ROUTES) {
      for (const coding of ["", "zstd", "gzip", "br"]) {
        const first = await get(path, { "accept-encoding": coding });
        const etag = first.headers.get("etag")!;
        const before = remaining(first);
        const again = await get(path, { "accept-encoding": coding, "if-none-match": etag });
        expect([path, coding, again.status]).toEqual([path, coding, 304]);
        expect(await again.text()).toBe("");
        expect(again.headers.get("etag")).toBe(etag);
        expect(again.headers.get("cache-control")).toBe("private, max-age=86400");
        expect(again.headers.get("ratelimit-policy")).toBe('"free";q=1000;w=3600');
        expect(remaining(again)).toBe(before - 1);
      }
    }
  });

  test("a tag of the same answer in another coding, W/, a list or *: 304; another answer's tag: 200", async () => {
    const identity = (await get("/v1/foods/01009")).headers.get("etag")!;
    const base = identity.slice(1, -1);
    for (const header of [`"${base}-gzip"`, `W/"${base}"`, `"nope", "${base}-zstd"`, "*"]) {
      expect([header, (await get("/v1/foods/01009", { "if-none-match": header })).status]).toEqual([header, 304]);
    }
    for (const header of [`"${base}x"`, (await get("/v1/foods/01001")).headers.get("etag")!, "garbage", '""']) {
      expect([header, (await get("/v1/foods/01009", { "if-none-match": header })).status]).toEqual([header, 200]);
    }
  });

  test("HEAD with If-None-Match is a 304 too", async () => {
    const etag = (await get("/v1/nutrients")).headers.get("etag")!;
    const head = await suite.app.request("/v1/nutrients", { method: "HEAD", headers: { "x-api-key": suite.key, "if-none-match": etag } });
    expect(head.status).toBe(304);
  });

  test("a 404 or a 400 carries no ETag", async () => {
    for (const path of ["/v1/foods/99999", "/v1/foods/01001?grams=0", "/v1/foods?limit=abc"]) {
      const response = await get(path, { "if-none-match": "*" });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers.get("etag")).toBeNull();
    }
  });
});

describe("content codings by Accept-Encoding", () => {
  const CASES: [header: string, coding: string | null][] = [
    ["zstd", "zstd"],
    ["br", "br"],
    ["gzip", "gzip"],
    ["identity", null],
    ["", null],
    ["gzip;q=0.4, br;q=0.8, zstd;q=0.1", "br"],
    ["zstd;q=0, gzip;q=0.5, identity;q=0.2", "gzip"],
    ["gzip;q=0.5, identity", null],
    ["deflate", null],
  ];

  // Large enough to be compressed: a stored detail, a scaled one, a long search page, the nutrient list.
  for (const path of ["/v1/foods/01001", "/v1/foods/11090?portion=1", "/v1/foods?q=chicken&limit=90", "/v1/nutrients"]) {
    test(`${path}: each decodes to exactly the identity JSON`, async () => {
      const identity = await (await get(path)).text();
      expect(identity.length).toBeGreaterThan(1024);
      for (const [header, expected] of CASES) {
        const response = await get(path, { "accept-encoding": header });
        const coding = response.headers.get("content-encoding");
        expect([header, coding]).toEqual([header, expected]);
        expect(response.headers.get("vary")).toBe("Accept-Encoding");
        const bytes = await response.bytes();
        if (coding !== null) expect(bytes.byteLength).toBeLessThan(identity.length / 3);
        expect(new TextDecoder().decode(decodeContent(coding, bytes))).toBe(identity);
      }
    });
  }

  test("a br-only client gets a detail as br, tagged and varied as the stored codings are; a 304 by any coding's tag", async () => {
    const identity = await get("/v1/foods/11090");
    const json = await identity.text();
    const base = identity.headers.get("etag")!.slice(1, -1);
    for (const header of ["br", "br;q=1, identity;q=0.5", "gzip;q=0.1, br"]) {
      const response = await get("/v1/foods/11090", { "accept-encoding": header });
      expect([header, response.headers.get("content-encoding"), response.headers.get("etag"), response.headers.get("vary")]).toEqual([header, "br", `"${base}-br"`, "Accept-Encoding"]);
      expect(response.headers.get("cache-control")).toBe("private, max-age=86400");
      expect(new TextDecoder().decode(decodeContent("br", await response.bytes()))).toBe(json);
    }
    for (const tag of [`"${base}-br"`, `"${base}-zstd"`, `"${base}"`]) {
      const again = await get("/v1/foods/11090", { "accept-encoding": "br", "if-none-match": tag });
      expect([tag, again.status, again.headers.get("etag")]).toEqual([tag, 304, `"${base}-br"`]);
    }
  });

  test("a gzip-only client (Python requests, Go net/http) gets a stored detail as gzip", async () => {
    // A stored form wins a tie with br, which is made (once per food) for the clients that take nothing else.
    for (const header of ["gzip", "gzip, deflate", "gzip, deflate, br", "br, gzip"]) {
      const response = await get("/v1/foods/01009", { "accept-encoding": header });
      expect([header, response.headers.get("content-encoding")]).toEqual([header, "gzip"]);
    }
    const browser = await get("/v1/foods/01009", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(browser.headers.get("content-encoding")).toBe("zstd");
  });

  test("bodies under 1 KiB go uncompressed", async () => {
    const response = await get("/v1/foods?q=cheddar&limit=1", { "accept-encoding": "gzip, br, zstd" });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect((await response.bytes()).byteLength).toBeLessThan(1024);
  });

  test("a kept answer goes as UTF-8 bytes, the same on every request: SR28's µg intact, its length in bytes", async () => {
    // The nutrient list is kept with its codings (a prepared answer); SR28's units come from windows-1252 text.
    for (let i = 0; i < 2; i++) {
      const response = await get("/v1/nutrients");
      expect(response.headers.get("content-encoding")).toBeNull();
      const bytes = await response.bytes();
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      expect(text).toContain('"unit":"µg"');
      expect(bytes.byteLength).toBe(Buffer.byteLength(text, "utf8"));
      expect(bytes.byteLength).toBeGreaterThan(text.length);
      expect(JSON.parse(text).items.length).toBeGreaterThan(100);
    }
  });
});
