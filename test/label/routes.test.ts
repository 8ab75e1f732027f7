import { describe, expect, test } from "bun:test";
import { XMLValidator } from "fast-xml-parser";
import { decodeContent } from "../helpers/content-coding";
import { testAppWithKey } from "../helpers/test-app";
import { rateLimitRemaining as remaining } from "../helpers/http";
import type { NutritionLabel } from "../../src/label/label";

// GET /v1/foods/{n}/label over HTTP (decisions §17): the guard, the serving as the detail route reads it,
// JSON or SVG by `format` or `Accept`, cached and compressed as the detail is. The label's numbers are the
// label tests' (label.test.ts, foods.test.ts).

const suite = testAppWithKey();

const get = (path: string, headers: Record<string, string> = {}) => suite.app.request(path, { headers: { "x-api-key": suite.key, ...headers } });
type Detail = { portions: { seq: number; amount: number; description: string; grams: number }[]; nutrients: { number: string; value: number }[] };
type Answer = NutritionLabel & { code?: string; message?: string };

describe("GET /v1/foods/{n}/label", () => {
  test("the food's first portion by default, or the grams or portion asked, with the detail's values per serving", async () => {
    const detail = (await (await get("/v1/foods/01009")).json()) as Detail;
    const [first, second] = detail.portions;
    const kcalPer100g = detail.nutrients.find((n) => n.number === "208")!.value;
    const response = await get("/v1/foods/01009/label");
    expect([response.status, response.headers.get("content-type"), response.headers.get("vary")]).toEqual([200, "application/json; charset=utf-8", "Accept-Encoding, Accept"]);
    const label = (await response.json()) as Answer;
    expect(label.servingSize).toEqual({ grams: first!.grams, description: `${first!.amount} ${first!.description}` });
    expect(label.lines[0]).toMatchObject({ key: "calories", number: "208", unit: "kcal", dv: null });
    expect(label.lines[0]!.amount).toBeCloseTo((kcalPer100g * first!.grams) / 100, 6);
    const byPortion = (await (await get(`/v1/foods/01009/label?portion=${second!.seq}`)).json()) as Answer;
    expect(byPortion.servingSize).toEqual({ grams: second!.grams, description: `${second!.amount} ${second!.description}` });
    const byGrams = (await (await get("/v1/foods/01009/label?grams=28.35")).json()) as Answer;
    expect(byGrams.servingSize).toEqual({ grams: 28.35, description: null });
    expect(byGrams.lines[0]!.amount).toBeCloseTo((kcalPer100g * 28.35) / 100, 6);
  });

  test("SVG by ?format=svg or by Accept: image/svg+xml, valid XML with the label's text; JSON when Accept prefers it", async () => {
    const json = (await (await get("/v1/foods/01009/label")).json()) as Answer;
    for (const [path, headers] of [["/v1/foods/01009/label?format=svg", {}], ["/v1/foods/01009/label", { accept: "image/svg+xml" }], ["/v1/foods/01009/label", { accept: "text/html, image/svg+xml;q=0.9, application/json;q=0.5" }]] as const) {
      const response = await get(path, headers);
      expect([path, response.status, response.headers.get("content-type"), response.headers.get("vary")]).toEqual([path, 200, "image/svg+xml", "Accept-Encoding, Accept"]);
      const svg = await response.text();
      expect(XMLValidator.validate(svg)).toBe(true);
      expect(svg).toContain("<svg");
      expect(svg).toContain(`>${json.lines[0]!.display}<`);
    }
    for (const accept of ["application/json", "image/svg+xml;q=0.5, application/json", "*/*", "image/*"]) {
      expect([accept, (await get("/v1/foods/01009/label", { accept })).headers.get("content-type")]).toEqual([accept, "application/json; charset=utf-8"]);
    }
    expect((await get("/v1/foods/01009/label?format=json", { accept: "image/svg+xml" })).headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  test("an ETag per representation, 304 for If-None-Match (counted), compressed by Accept-Encoding; HEAD alike", async () => {
    const json = await get("/v1/foods/01009/label");
    const svg = await get("/v1/foods/01009/label?format=svg");
    const [jsonTag, svgTag] = [json.headers.get("etag")!, svg.headers.get("etag")!];
    expect(jsonTag).toMatch(/^"[0-9a-z-]+"$/);
    expect(svgTag).not.toBe(jsonTag);
    const again = await get("/v1/foods/01009/label?format=svg", { "if-none-match": svgTag });
    expect([again.status, await again.text(), remaining(again)]).toEqual([304, "", remaining(svg) - 1]);
    expect((await get("/v1/foods/01009/label", { "if-none-match": svgTag })).status).toBe(200);
    const identity = await svg.text();
    for (const coding of ["zstd", "br", "gzip"]) {
      const response = await get("/v1/foods/01009/label?format=svg", { "accept-encoding": coding });
      expect([response.headers.get("content-encoding"), response.headers.get("etag")]).toEqual([coding, svgTag.replace(/"$/, `-${coding}"`)]);
      expect(new TextDecoder().decode(decodeContent(coding, await response.bytes()))).toBe(identity);
    }
    const head = await suite.app.request("/v1/foods/01009/label?format=svg", { method: "HEAD", headers: { "x-api-key": suite.key } });
    expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([200, "image/svg+xml", ""]);
  });

  test("400 as the detail route (grams, portion) and for a format it does not draw; 404 FOOD_NOT_FOUND; 401 without a credential", async () => {
    const cases: [string, string][] = [
      ["grams=0", "grams"],
      ["grams=abc", "grams"],
      ["grams=10000.5", "grams"],
      ["grams=10&portion=1", "grams"],
      ["portion=x", "portion"],
      ["portion=999", "portion"],
      ["format=png", "format"],
    ];
    for (const [query, field] of cases) {
      const response = await get(`/v1/foods/01009/label?${query}`);
      const body = (await response.json()) as Answer;
      expect([query, response.status, body.code, body.message!.split(":")[0]]).toEqual([query, 400, "VALIDATION_ERROR", field]);
      expect(response.headers.get("ratelimit")).not.toBeNull();
    }
    for (const number of ["99999", "1009", "abc"]) {
      const response = await get(`/v1/foods/${number}/label`);
      expect([number, response.status, ((await response.json()) as Answer).code]).toEqual([number, 404, "FOOD_NOT_FOUND"]);
    }
    expect((await suite.app.request("/v1/foods/01009/label")).status).toBe(401);
  });
});
