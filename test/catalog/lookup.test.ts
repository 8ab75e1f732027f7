import { describe, expect, test } from "bun:test";
import { obtainTrialToken } from "../helpers/altcha";
import { decodeContent } from "../helpers/content-coding";
import { oracleFoods, oracleFoodValues, oracleScaled } from "../helpers/sr28-oracle";
import { createTestApp, type TestApp, testAppWithKey } from "../helpers/test-app";
import { rateLimitRemaining as remaining } from "../helpers/http";
import { MAX_BODY_BYTES } from "../../src/platform/http/body-limit";
import { lookupJsonBytes } from "../../src/catalog/lookup";
import { TRIAL_TOKEN_REQUESTS } from "../../src/trial/token";

// POST /v1/foods/lookup (design §9): several details at once, one quota unit per distinct food number,
// all or nothing.

const suite = testAppWithKey({ env: { FOODAPI_TRIAL_IP_LIMIT: "1000/1h" } });

const lookup = (body: unknown, headers: Record<string, string> = { "x-api-key": suite.key }) =>
  suite.app.request("/v1/foods/lookup", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

interface LookupAnswer {
  items: { foodNumber: string; name: string; basis: { grams: number; portion: null }; nutrients: { number: string; value: number }[] }[];
  notFound: string[];
  code?: string;
  message?: string;
}

describe("POST /v1/foods/lookup", () => {
  test("items in request order, each food once, notFound exactly the numbers that are not foods, in order", async () => {
    const asked = ["11090", "01001", "99999", "01009", "01001", "abc", "11090", "99999", "1001", "01009"];
    const response = await lookup({ foodNumbers: asked });
    expect(response.status).toBe(200);
    const body = (await response.json()) as LookupAnswer;
    expect(body.items.map((i) => i.foodNumber)).toEqual(["11090", "01001", "01009"]);
    expect(body.notFound).toEqual(["99999", "abc", "1001"]);
    const names = new Map(oracleFoods().map((f) => [f.foodNumber, f.name]));
    for (const item of body.items) expect(item.name).toBe(names.get(item.foodNumber)!);
    // Each item is the detail route's answer.
    const single = (await (await suite.app.request("/v1/foods/01001", { headers: { "x-api-key": suite.key } })).json()) as LookupAnswer["items"][number];
    expect(body.items[1]).toEqual(single);
  });

  test("nutrients and grams apply to every item, scaled as the oracle has it", async () => {
    const body = (await (await lookup({ foodNumbers: ["01009", "11090"], nutrients: ["208", "203", "999"], grams: 28.35 })).json()) as LookupAnswer;
    for (const item of body.items) {
      expect(item.basis).toEqual({ grams: 28.35, portion: null });
      const expected = new Map(oracleFoodValues(item.foodNumber).map((v) => [v.nutrientNumber, Number(oracleScaled(v.text, "28.35", v.decimals))]));
      expect(item.nutrients.map((n) => [n.number, n.value])).toEqual([
        ["208", expected.get("208")!],
        ["203", expected.get("203")!],
      ]);
    }
  });

  test("costs one unit per distinct food number, found or not", async () => {
    const before = remaining(await suite.app.request("/v1/nutrients", { headers: { "x-api-key": suite.key } }));
    const response = await lookup({ foodNumbers: ["01001", "01001", "99999", "01009"] });
    expect(remaining(response)).toBe(before - 3);
  });

  test("1 to 50 entries: 50 is fine, 0 and 51 are 400; malformed bodies are 400 naming the field, counted", async () => {
    const fifty = oracleFoods().slice(0, 50).map((f) => f.foodNumber);
    const ok = await lookup({ foodNumbers: fifty });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as LookupAnswer).items).toHaveLength(50);
    const cases: [unknown, string][] = [
      [{ foodNumbers: [...fifty, "01001"] }, "foodNumbers"],
      [{ foodNumbers: [] }, "foodNumbers"],
      [{}, "foodNumbers"],
      [{ foodNumbers: "01001" }, "foodNumbers"],
      [{ foodNumbers: ["01001", 1001] }, "foodNumbers.1"],
      [{ foodNumbers: ["01001", null] }, "foodNumbers.1"],
      [{ foodNumbers: ["01001"], nutrients: "203" }, "nutrients"],
      [{ foodNumbers: ["01001"], nutrients: [203] }, "nutrients.0"],
      [{ foodNumbers: ["01001"], grams: 0 }, "grams"],
      [{ foodNumbers: ["01001"], grams: -1 }, "grams"],
      [{ foodNumbers: ["01001"], grams: 10000.5 }, "grams"],
      [{ foodNumbers: ["01001"], grams: "150" }, "grams"],
      [{ foodNumbers: ["01001"], grams: 1e-9 }, "grams"],
      [{ foodNumbers: ["01001"], grams: 1.1234567 }, "grams"],
      [[], "body"],
      ["null", "body"],
      ['"01001"', "body"],
    ];
    for (const [body, field] of cases) {
      const before = remaining(await suite.app.request("/v1/nutrients", { headers: { "x-api-key": suite.key } }));
      const response = await lookup(body);
      const answer = (await response.json()) as LookupAnswer;
      expect([body, response.status, answer.code]).toEqual([body, 400, "VALIDATION_ERROR"]);
      expect(answer.message!.startsWith(`${field}:`)).toBe(true);
      expect(remaining(response)).toBe(before - 1);
    }
  });

  test("malformed JSON is 400 INVALID_JSON; a body over 16 KiB is 413; without a credential 401 whatever the body", async () => {
    expect((await lookup("{nope")).status).toBe(400);
    const big = await lookup({ foodNumbers: ["01001"], nutrients: Array.from({ length: 3000 }, () => "203") });
    expect(big.status).toBe(413);
    for (const body of ["{nope", JSON.stringify({ foodNumbers: ["01001"] }), "x".repeat(20_000)]) {
      const response = await lookup(body, {});
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="foodapi"');
      expect(response.headers.get("ratelimit")).toBeNull();
      expect(((await response.json()) as LookupAnswer).code).toBe("UNAUTHORIZED");
    }
    expect((await lookup({ foodNumbers: ["01001"] }, { "x-api-key": "fnk_unknown" })).status).toBe(401);
  });

  test("answers made one after another, before either is read, each keep their own bytes and ETag", async () => {
    // Every lookup joins its answer in the same buffer (lookup.ts): a response must hold its bytes, not that buffer.
    const bodies = [{ foodNumbers: ["01001", "01009", "99999"] }, { foodNumbers: ["11090"] }, { foodNumbers: ["01009", "01001"], grams: 30 }];
    const made = [];
    for (const body of bodies) made.push(await lookup(body));
    const texts = await Promise.all(made.map((response) => response.text()));
    for (const [i, body] of bodies.entries()) {
      const alone = await lookup(body);
      expect([i, texts[i], made[i]!.headers.get("etag")]).toEqual([i, await alone.text(), alone.headers.get("etag")]);
    }
    const first = JSON.parse(texts[0]!) as LookupAnswer;
    expect([first.items.map((item) => item.foodNumber), first.notFound]).toEqual([["01001", "01009"], ["99999"]]);
  });

  test("compressed by Accept-Encoding; an ETag but no 304 on a POST", async () => {
    const body = { foodNumbers: ["01001", "01009", "11090"] };
    const plain = await lookup(body);
    const identity = await plain.text();
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-z-]+"$/);
    for (const coding of ["zstd", "br", "gzip"]) {
      const response = await lookup(body, { "x-api-key": suite.key, "accept-encoding": coding });
      expect(response.headers.get("content-encoding")).toBe(coding);
      expect(new TextDecoder().decode(decodeContent(coding, await response.bytes()))).toBe(identity);
    }
    expect((await lookup(body, { "x-api-key": suite.key, "if-none-match": etag })).status).toBe(200);
  });
});

/**
 * One rule for every data route with a body (design §16 says it of the analysis too): the credential is
 * checked first (401 whatever the body, nothing counted), then a body that is not JSON, too large, or not a
 * request of the route's is a 4xx that costs one unit and carries the RateLimit headers, until the quota is
 * spent; then it is the 429.
 */
describe("a bad body costs one unit and carries the RateLimit headers", () => {
  const BAD_BODIES: [body: string, status: number, code: string][] = [
    ["{bad", 400, "INVALID_JSON"],
    [JSON.stringify({ foodNumbers: "01001" }), 400, "VALIDATION_ERROR"],
    [JSON.stringify({ foodNumbers: ["01001"], nutrients: Array.from({ length: MAX_BODY_BYTES / 4 }, () => "203") }), 413, "PAYLOAD_TOO_LARGE"],
  ];

  /** Sends `count` bad bodies in turn; each answer's status, code and RateLimit `r` (null without the header). */
  async function sendBadBodies(app: TestApp, headers: Record<string, string>, count: number) {
    const answers: [number, string, number | null][] = [];
    for (let i = 0; i < count; i++) {
      const [body] = BAD_BODIES[i % BAD_BODIES.length]!;
      const response = await app.request("/v1/foods/lookup", { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
      const header = response.headers.get("ratelimit");
      answers.push([response.status, ((await response.json()) as LookupAnswer).code!, header === null ? null : remaining(response)]);
    }
    return answers;
  }

  test(`41 bad lookups with a fresh trial token: ${TRIAL_TOKEN_REQUESTS} 4xx counting it down, each with its headers, then 429`, async () => {
    const { token } = await obtainTrialToken((path, init) => suite.app.request(path, init));
    const headers = { authorization: `Bearer ${token}` };
    const answers = await sendBadBodies(suite.app, headers, 41);
    const expected = answers.map((_, i): [number, string, number | null] => {
      if (i >= TRIAL_TOKEN_REQUESTS) return [429, "TRIAL_QUOTA_EXHAUSTED", 0];
      const [, status, code] = BAD_BODIES[i % BAD_BODIES.length]!;
      return [status, code, TRIAL_TOKEN_REQUESTS - 1 - i];
    });
    expect(answers).toEqual(expected);
    expect((await suite.app.request("/v1/nutrients", { headers })).status).toBe(429);
  });

  test("the same with an API key: the key's quota pays for each bad body", async () => {
    const limited = await createTestApp({ env: { FOODAPI_FREE_LIMIT: "5/1h" } });
    try {
      const headers = { "x-api-key": (await limited.issueKey()).key };
      const answers = await sendBadBodies(limited, headers, 7);
      expect(answers.map(([status, code]) => [status, code])).toEqual([
        [400, "INVALID_JSON"], [400, "VALIDATION_ERROR"], [413, "PAYLOAD_TOO_LARGE"], [400, "INVALID_JSON"], [400, "VALIDATION_ERROR"],
        [429, "RATE_LIMITED"], [429, "RATE_LIMITED"],
      ]);
      expect(answers.map(([, , left]) => left)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    } finally {
      await limited.close();
    }
  });

  test("without a valid credential a bad body is the 401, without headers, and counts nothing", async () => {
    const { token } = await obtainTrialToken((path, init) => suite.app.request(path, init));
    for (const headers of [{}, { "x-api-key": "fnk_unknown" }, { authorization: "Basic abc" }] as Record<string, string>[]) {
      expect((await sendBadBodies(suite.app, headers, 3)).map(([status, code, left]) => [status, code, left])).toEqual(Array.from({ length: 3 }, () => [401, "UNAUTHORIZED", null]));
    }
    expect(remaining(await suite.app.request("/v1/nutrients", { headers: { authorization: `Bearer ${token}` } }))).toBe(TRIAL_TOKEN_REQUESTS - 1);
  });
});

describe("a lookup's cost is all or nothing", () => {
  test("a key with 3 requests left: a 5-food lookup is 429 and counts nothing; the next request succeeds", async () => {
    const limited = await createTestApp({ env: { FOODAPI_FREE_LIMIT: "8/1h" } });
    try {
      const limitedKey = (await limited.issueKey()).key;
      const headers = { "x-api-key": limitedKey, "content-type": "application/json" };
      const post = (foodNumbers: string[]) => limited.request("/v1/foods/lookup", { method: "POST", headers, body: JSON.stringify({ foodNumbers }) });
      expect(remaining(await post(["01001", "01002", "01003", "01004", "01005"]))).toBe(3);
      const refused = await post(["01001", "01002", "01003", "01004", "01005"]);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as LookupAnswer).code).toBe("RATE_LIMITED");
      expect(remaining(refused)).toBe(3);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      const single = await limited.request("/v1/foods/01001", { headers: { "x-api-key": limitedKey } });
      expect(single.status).toBe(200);
      expect(remaining(single)).toBe(2);
      // Exactly what is left still fits.
      const two = await post(["01009", "11090", "01009"]);
      expect(two.status).toBe(200);
      expect(remaining(two)).toBe(0);
      expect((await limited.request("/v1/food-groups", { headers: { "x-api-key": limitedKey } })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  test("a trial token with 3 requests left: the same, and the token's remaining quota is told", async () => {
    const { token } = await obtainTrialToken((path, init) => suite.app.request(path, init));
    const headers = { authorization: `Bearer ${token}` };
    const fifteen = oracleFoods().slice(0, 27).map((f) => f.foodNumber);
    expect(remaining(await lookup({ foodNumbers: fifteen }, headers))).toBe(3);
    const refused = await lookup({ foodNumbers: fifteen.slice(0, 5) }, headers);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as LookupAnswer).code).toBe("TRIAL_QUOTA_EXHAUSTED");
    expect(refused.headers.get("ratelimit")).toMatch(/^"trial";r=3;t=\d+$/);
    const single = await suite.app.request("/v1/foods/01001", { headers });
    expect(single.status).toBe(200);
    expect(remaining(single)).toBe(2);
  });

  test("parallel lookups never spend more than the quota", async () => {
    const limited = await createTestApp({ env: { FOODAPI_FREE_LIMIT: "10/1h" } });
    try {
      const limitedKey = (await limited.issueKey()).key;
      const headers = { "x-api-key": limitedKey, "content-type": "application/json" };
      const foods = ["01001", "01002", "01003"];
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => limited.request("/v1/foods/lookup", { method: "POST", headers, body: JSON.stringify({ foodNumbers: foods }) })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
      const last = await limited.request("/v1/nutrients", { headers: { "x-api-key": limitedKey } });
      expect([last.status, remaining(last)]).toEqual([200, 0]);
    } finally {
      await limited.close();
    }
  });
});

// The catalog hands out a plain detail's bytes in a buffer it reuses for the next food's (answer-file.ts): the
// join must take each as it comes, also past its reused buffer's 512 KB.
test("lookupJsonBytes copies each food's bytes as it comes, however many and large, from a source that reuses one buffer", () => {
  const shared = new Uint8Array(100_000);
  const detail = (foodNumber: string) => {
    const json = new TextEncoder().encode(JSON.stringify({ foodNumber, pad: foodNumber.repeat(14_000) }));
    shared.set(json);
    return shared.subarray(0, json.byteLength);
  };
  const numbers = Array.from({ length: 12 }, (_, i) => String(10_000 + i));
  const joined = lookupJsonBytes([...numbers, "99999"], (n) => (n === "99999" ? null : detail(n)));
  expect(joined.byteLength).toBeGreaterThan(512 * 1024);
  const parsed = JSON.parse(new TextDecoder().decode(joined)) as { items: { foodNumber: string; pad: string }[]; notFound: string[] };
  expect(parsed.items.map((item) => item.foodNumber)).toEqual(numbers);
  expect(parsed.items.every((item) => item.pad === item.foodNumber.repeat(14_000))).toBe(true);
  expect(parsed.notFound).toEqual(["99999"]);
  const small = lookupJsonBytes(["10001"], detail);
  expect((JSON.parse(new TextDecoder().decode(small)) as { items: { foodNumber: string }[] }).items.map((item) => item.foodNumber)).toEqual(["10001"]);
});
