import { describe, expect, test } from "bun:test";
import { testAppWithKey } from "../helpers/test-app";

const suite = testAppWithKey();

async function get(path: string) {
  const response = await suite.app.request(path, { headers: { "x-api-key": suite.key } });
  return { response, status: response.status, body: (await response.json()) as any };
}

describe("GET /v1/foods/{foodNumber}", () => {
  test("01001 matches SR28: butter, 717 kcal, 115 nutrients in SR order, 4 portions", async () => {
    const { status, body, response } = await get("/v1/foods/01001");
    expect(status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("ratelimit-policy")).toBe('"free";q=1000;w=3600');
    expect(response.headers.get("ratelimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    expect(body.name).toBe("Butter, salted");
    expect(body.shortName).toBe("BUTTER,WITH SALT");
    expect(body.group).toEqual({ code: "0100", name: "Dairy and Egg Products" });
    expect(body.factors).toEqual({ nitrogen: 6.38, protein: 4.27, fat: 8.79, carbohydrate: 3.87 });
    expect(body.refuse).toEqual({ percent: 0, description: null });
    expect(body.nutrients).toHaveLength(115);
    const energy = body.nutrients.find((n: { number: string }) => n.number === "208");
    expect(energy).toMatchObject({ name: "Energy", tag: "ENERC_KCAL", unit: "kcal", value: 717, dataPoints: 0, stdError: null });
    expect(energy.derivation.code).toBe("NC");
    const protein = body.nutrients.find((n: { number: string }) => n.number === "203");
    expect(protein).toMatchObject({ value: 0.85, dataPoints: 16, stdError: 0.074 });
    expect(body.portions).toHaveLength(4);
    expect(body.portions[0]).toEqual({ seq: 1, amount: 1, description: 'pat (1" sq, 1/3" high)', grams: 5 });
  });

  test("nutrients are in SR order", async () => {
    const { body: detail } = await get("/v1/foods/01001");
    const { body: list } = await get("/v1/nutrients");
    const order = new Map(list.items.map((n: { number: string; order: number }) => [n.number, n.order]));
    const orders = detail.nutrients.map((n: { number: string }) => order.get(n.number));
    expect(orders).toEqual([...orders].sort((a: number, b: number) => a - b));
  });

  test("?nutrients= returns only those, ignoring unknown numbers", async () => {
    const { body } = await get("/v1/foods/01001?nutrients=204,203,999,abc");
    expect(body.nutrients.map((n: { number: string }) => n.number)).toEqual(["203", "204"]);
  });

  test("windows-1252 text is decoded: 22996 has an Entrée portion", async () => {
    const { body } = await get("/v1/foods/22996");
    expect(body.portions.map((p: { description: string }) => p.description)).toContain("Entrée");
  });

  test("footnotes are returned", async () => {
    const { body } = await get("/v1/foods/02009");
    expect(body.footnotes.length).toBeGreaterThan(0);
    expect(body.footnotes[0]).toMatchObject({ type: "D", text: "Mix of chili pepper, other spices and salt" });
  });

  for (const bad of ["99999", "1001", "010011", "abcde", "01001x", "%20", "%201001", "%2B1001", "1.001", "-1001", "%D9%A0%D9%A1%D9%A0%D9%A0%D9%A1"]) {
    test(`'${bad}' is 404 FOOD_NOT_FOUND`, async () => {
      const { status, body } = await get(`/v1/foods/${bad}`);
      expect(status).toBe(404);
      expect(body.code).toBe("FOOD_NOT_FOUND");
    });
  }
});

describe("lists", () => {
  test("food groups: all 25 by code, counts adding up to 8,789 foods", async () => {
    const { body } = await get("/v1/food-groups");
    expect(body.items).toHaveLength(25);
    expect(body.items[0]).toEqual({ code: "0100", name: "Dairy and Egg Products", foodCount: expect.any(Number) });
    const codes = body.items.map((g: { code: string }) => g.code);
    expect(codes).toEqual([...codes].sort());
    expect(body.items.reduce((sum: number, g: { foodCount: number }) => sum + g.foodCount, 0)).toBe(8789);
  });

  test("nutrients: all 150 in SR order, selenium in µg", async () => {
    const { body } = await get("/v1/nutrients");
    expect(body.items).toHaveLength(150);
    expect(body.items.find((n: { number: string }) => n.number === "203")).toEqual({
      number: "203", name: "Protein", unit: "g", tag: "PROCNT", decimals: 2, order: 600,
    });
    expect(body.items.find((n: { number: string }) => n.number === "317").unit).toBe("µg");
    const orders = body.items.map((n: { order: number }) => n.order);
    expect(orders).toEqual([...orders].sort((a: number, b: number) => a - b));
  });
});

describe("a detail as stored, for clients that accept zstd", () => {
  const detail = (acceptEncoding?: string, path = "/v1/foods/01001") =>
    suite.app.request(path, { headers: { "x-api-key": suite.key, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) } });

  test("sent compressed with Content-Encoding: zstd, the same JSON once decoded", async () => {
    const plain = await detail();
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const plainText = await plain.text();

    const compressed = await detail("gzip, deflate, br, zstd");
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get("content-encoding")).toBe("zstd");
    expect(compressed.headers.get("vary")).toBe("Accept-Encoding");
    expect(compressed.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(compressed.headers.get("ratelimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    const bytes = new Uint8Array(await compressed.arrayBuffer());
    expect(bytes.length).toBeLessThan(plainText.length / 4);
    expect(new TextDecoder().decode(Bun.zstdDecompressSync(bytes))).toBe(plainText);
  });

  test("not to a client that refuses it; a small ?nutrients= selection goes as it is", async () => {
    for (const refusing of ["deflate", "zstd;q=0", "x-zstd"]) expect((await detail(refusing)).headers.get("content-encoding")).toBeNull();
    const selected = await detail("zstd", "/v1/foods/01001?nutrients=208");
    expect(selected.headers.get("content-encoding")).toBeNull();
    expect(((await selected.json()) as { nutrients: unknown[] }).nutrients).toHaveLength(1);
    expect((await detail("zstd", "/v1/foods/99999")).status).toBe(404);
  });
});

describe("URL forms the data routes accept", () => {
  test("a trailing slash is the same route", async () => {
    expect((await get("/v1/foods/")).body).toEqual((await get("/v1/foods")).body);
    expect((await get("/v1/foods/01001/")).body.name).toBe("Butter, salted");
    expect((await get("/v1/food-groups/")).body.items).toHaveLength(25);
  });

  test("a percent-encoded food number is decoded; invalid encoding is a plain 404", async () => {
    expect((await get("/v1/foods/%30%31001")).body.name).toBe("Butter, salted");
    const invalid = await get("/v1/foods/%ZZ");
    expect(invalid.status).toBe(404);
    expect(invalid.body.code).toBe("FOOD_NOT_FOUND");
    expect(invalid.response.headers.get("ratelimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    expect((await get("/v1/foods//")).status).toBe(404);
  });

  test("a repeated parameter counts once, with its first value", async () => {
    expect((await get("/v1/foods?q=cheddar&q=zzzz&limit=5&limit=7")).body).toEqual((await get("/v1/foods?q=cheddar&limit=5")).body);
  });

  test("HEAD answers like GET, without a body", async () => {
    const response = await suite.app.request("/v1/foods?q=cheddar", { method: "HEAD", headers: { "x-api-key": suite.key } });
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit")).toMatch(/^"free";r=\d+;t=\d+$/);
    expect(await response.text()).toBe("");
    expect((await suite.app.request("/v1/foods", { method: "HEAD" })).status).toBe(401);
  });
});

describe("public routes", () => {
  test("/v1/meta shows the dataset counts and limits without a credential", async () => {
    const response = await suite.app.request("/v1/meta");
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.apiVersion).toBe("v1");
    expect(body.dataset.release).toBe("SR28");
    expect(body.dataset.counts).toMatchObject({
      foods: 8789, foodGroups: 25, nutrients: 150, nutrientValues: 679045, portions: 15438,
    });
    expect(body.limits.pageSize).toEqual({ default: 20, max: 90 });
    expect(body.limits.trialToken).toEqual({ lifetimeSeconds: 86400, requests: 30 });
    expect(body.citation).toContain("Release 28");
  });

  test("/healthz is 200 ok while both databases answer", async () => {
    const response = await suite.app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("unknown route and wrong method: 404 in the error shape", async () => {
    for (const [path, method] of [["/nope", "GET"], ["/v1/foods", "DELETE"], ["/v1/meta", "POST"]] as const) {
      const response = await suite.app.request(path, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
    }
  });

  test("no request so far reached the internal error path", () => {
    expect(suite.app.errors).toEqual([]);
  });
});
