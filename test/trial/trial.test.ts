import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import type { Challenge } from "altcha-lib";
import { obtainTrialToken, solveToWidgetPayload } from "../helpers/altcha";
import { jsonPost, snapshot } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { FOODAPI_TRIAL_IP_LIMIT: "1000/1h" } });
});
afterAll(() => t.close());

const redeem = (challengeToken: unknown, headers: Record<string, string> = {}) =>
  t.request("/v1/trial-token", jsonPost({ challengeToken }, headers));
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const getChallenge = async () => (await (await t.request("/v1/trial-challenge")).json()) as Challenge;
const withBearer = (token: string, path = "/v1/foods?q=apple") => t.request(path, { headers: { authorization: `Bearer ${token}` } });

describe("ALTCHA challenge and trial token", () => {
  test("a challenge solved with altcha-lib's solver buys a 24-hour token that works on data routes", async () => {
    const response = await t.request("/v1/trial-challenge");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const challenge = (await response.json()) as Challenge;
    expect(challenge.parameters.algorithm).toBe("PBKDF2/SHA-256");
    const expiresIn = challenge.parameters.expiresAt! - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThan(590);
    expect(expiresIn).toBeLessThanOrEqual(600);

    const issued = await redeem(await solveToWidgetPayload(challenge));
    expect(issued.status).toBe(201);
    const body = (await issued.json()) as { token: string; expiresAt: string };
    expect(body.token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const lifetime = Date.parse(body.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(24 * 3600_000 - 5_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600_000);
    const payload = JSON.parse(Buffer.from(body.token.split(".")[0]!, "base64url").toString());
    expect(payload).toMatchObject({ jti: expect.any(String), iat: expect.any(Number), exp: payload.iat + 86400, tier: "anon" });

    for (const path of ["/v1/foods?q=apple", "/v1/foods/01001", "/v1/food-groups", "/v1/nutrients"]) {
      expect((await withBearer(body.token, path)).status).toBe(200);
    }
  });

  test("the same solution twice: the second is 403 CHALLENGE_FAILED", async () => {
    const challengeToken = await solveToWidgetPayload(await getChallenge());
    expect((await redeem(challengeToken)).status).toBe(201);
    const replay = await redeem(challengeToken);
    expect(replay.status).toBe(403);
    expect(await replay.json()).toEqual({ code: "CHALLENGE_FAILED", message: expect.any(String) });
  });

  test("a challenge with a forged signature is 403", async () => {
    const challenge = await getChallenge();
    const forged = { ...challenge, signature: createHmac("sha256", "not our secret").update("x").digest("hex") };
    expect((await redeem(await solveToWidgetPayload(forged))).status).toBe(403);
    // Extending the signed expiry breaks the signature too.
    const stretched = { ...challenge, parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt! + 3600 } };
    expect((await redeem(await solveToWidgetPayload(stretched))).status).toBe(403);
  });

  test("a challenge past its 10 minutes is 403 (clock injected)", async () => {
    let now = Date.now();
    const app = await createTestApp({ clock: () => now });
    try {
      const challenge = (await (await app.request("/v1/trial-challenge")).json()) as Challenge;
      const challengeToken = await solveToWidgetPayload(challenge);
      now += 10 * 60_000 + 1_000;
      const response = await app.request("/v1/trial-token", jsonPost({ challengeToken }));
      expect(response.status).toBe(403);
    } finally {
      await app.close();
    }
  });

  test("a wrong answer, garbage and wrong types: 403 or 400, never 5xx", async () => {
    const challenge = await getChallenge();
    const wrong = Buffer.from(JSON.stringify({ challenge, solution: { counter: 1, derivedKey: "ff".repeat(32) } })).toString("base64");
    expect((await redeem(wrong)).status).toBe(403);
    for (const garbage of ["", "not base64 at all!", Buffer.from("{}").toString("base64"), Buffer.from('{"challenge":1,"solution":2}').toString("base64"), "x".repeat(10_000)]) {
      expect((await redeem(garbage)).status).toBe(403);
    }
    const noBody = await t.request("/v1/trial-token", { method: "POST" });
    expect(noBody.status).toBe(400);
    const missing = await t.request("/v1/trial-token", jsonPost({}));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ code: "VALIDATION_ERROR", message: expect.stringContaining("challengeToken") });
    expect((await redeem(42)).status).toBe(400);
    expect(t.errors).toEqual([]);
  });
});

describe("the uniform 401 for bad trial tokens", () => {
  test("tampered payload, tampered signature, another secret, garbage, non-canonical base64: identical 401", async () => {
    const { token } = await obtainTrialToken(t.request);
    const [payload, signature] = token.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const reencode = (c: object) => Buffer.from(JSON.stringify(c)).toString("base64url");
    const signWith = (secret: string, p: string) => `${p}.${createHmac("sha256", secret).update(p).digest("base64url")}`;
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    const bad = [
      `${reencode({ ...claims, exp: claims.exp + 86400 })}.${signature}`,
      `${payload}.${flip(signature)}`,
      signWith("some other secret entirely, 32+ chars long", payload),
      "garbage",
      `${payload}.${signature}.extra`,
      `${payload}=.${signature}`,
      `${payload}.${signature}=`,
      `${payload}.${signature.replaceAll("-", "+").replaceAll("_", "/")}`,
      // Stray bits: a 32-byte MAC is 43 characters whose last 2 bits are unused; setting one decodes to
      // the same bytes, so only the canonical-form check tells them apart.
      `${payload}.${signature.slice(0, -1)}${B64URL[B64URL.indexOf(signature.at(-1)!) ^ 1]}`,
      ".",
    ].filter((candidate) => candidate !== token);
    const reference = await snapshot(await t.request("/v1/foods"));
    expect(reference.status).toBe(401);
    for (const candidate of bad) {
      expect([candidate, await snapshot(await withBearer(candidate))]).toEqual([candidate, reference]);
    }
    expect((await withBearer(token)).status).toBe(200);
  });

  test("an expired token (clock injected) gets the same 401 and no RateLimit headers", async () => {
    let now = Date.now();
    const app = await createTestApp({ clock: () => now });
    try {
      const { token } = await obtainTrialToken(app.request);
      expect((await app.request("/v1/nutrients", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      now += 24 * 3600_000 + 1;
      const expired = await app.request("/v1/nutrients", { headers: { authorization: `Bearer ${token}` } });
      expect(await snapshot(expired)).toEqual(await snapshot(await app.request("/v1/nutrients")));
      expect(expired.headers.get("ratelimit")).toBeNull();
    } finally {
      await app.close();
    }
  });

  test("FOODAPI_TRIAL_SECRET signs tokens that another instance with the same secret accepts", async () => {
    const secret = "an operator-provided trial secret of enough length";
    const a = await createTestApp({ env: { FOODAPI_TRIAL_SECRET: secret } });
    const b = await createTestApp({ env: { FOODAPI_TRIAL_SECRET: secret } });
    const c = await createTestApp();
    try {
      const { token } = await obtainTrialToken(a.request);
      expect((await b.request("/v1/nutrients", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await c.request("/v1/nutrients", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    } finally {
      await a.close();
      await b.close();
      await c.close();
    }
  });
});

describe("trial quota and headers", () => {
  test("exactly 30 requests per token; the 31st is 429 TRIAL_QUOTA_EXHAUSTED with Retry-After until expiry", async () => {
    const { token } = await obtainTrialToken(t.request);
    for (let i = 1; i <= 30; i++) {
      const response = await withBearer(token, "/v1/food-groups");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe('"trial";q=30;w=86400');
      expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"trial";r=${30 - i};t=\\d+$`));
    }
    const over = await withBearer(token, "/v1/food-groups");
    expect(over.status).toBe(429);
    const error = (await over.json()) as any;
    expect(error.code).toBe("TRIAL_QUOTA_EXHAUSTED");
    expect(error.message).toMatch(/sign up/i);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(86400 - 60);
    expect(retryAfter).toBeLessThanOrEqual(86400);
    expect(over.headers.get("ratelimit")).toMatch(/^"trial";r=0;t=\d+$/);
  });

  test("a 404 detail counts too, and carries the RateLimit headers", async () => {
    const { token } = await obtainTrialToken(t.request);
    const missing = await withBearer(token, "/v1/foods/99999");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("ratelimit")).toMatch(/^"trial";r=29;/);
    expect((await withBearer(token, "/v1/nutrients")).headers.get("ratelimit")).toMatch(/^"trial";r=28;/);
  });
});

describe("per-IP limits on the trial routes", () => {
  test("10 per hour per IP on each route, counted separately", async () => {
    const app = await createTestApp();
    try {
      const ip = { "cf-connecting-ip": "192.0.2.44" };
      for (let i = 0; i < 10; i++) expect((await app.request("/v1/trial-challenge", { headers: ip })).status).toBe(200);
      const limited = await app.request("/v1/trial-challenge", { headers: ip });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(3000);
      expect((await app.request("/v1/trial-challenge", { headers: { "cf-connecting-ip": "192.0.2.45" } })).status).toBe(200);
      // The token route has its own count for the same IP.
      expect((await app.request("/v1/trial-token", jsonPost({ challengeToken: "x" }, ip))).status).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe("free-tier rate limit", () => {
  test("with 5 per minute: 5 × 200 with r counting down, then 429 RATE_LIMITED with Retry-After; another key is unaffected", async () => {
    const app = await createTestApp({ env: { FOODAPI_FREE_LIMIT: "5/1m" } });
    try {
      const a = (await app.issueKey("a@example.com")).key;
      const b = (await app.issueKey("b@example.com")).key;
      for (let i = 1; i <= 5; i++) {
        const response = await app.request("/v1/nutrients", { headers: { "x-api-key": a } });
        expect(response.status).toBe(200);
        expect(response.headers.get("ratelimit-policy")).toBe('"free";q=5;w=60');
        expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"free";r=${5 - i};t=(59|60|61)$`));
      }
      const limited = await app.request("/v1/nutrients", { headers: { "x-api-key": a } });
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as any).code).toBe("RATE_LIMITED");
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(61); // a window of 60 one-second slots, plus the current one
      expect(limited.headers.get("ratelimit")).toMatch(/^"free";r=0;t=\d+$/);
      const other = await app.request("/v1/nutrients", { headers: { "x-api-key": b } });
      expect(other.status).toBe(200);
      expect(other.headers.get("ratelimit")).toMatch(/^"free";r=4;/);
    } finally {
      await app.close();
    }
  });

  test("a key past a large quota keeps getting its 429 with RateLimit and Retry-After, without a store grant per request", async () => {
    let now = Date.parse("2026-03-01T00:00:00.100Z");
    let grants = 0;
    const app = await createTestApp({
      clock: () => now,
      env: { FOODAPI_FREE_LIMIT: "100/1h" },
      stores: (backend) => ({
        ...backend,
        limits: { ...backend.limits, grant: (...args) => (grants++, backend.limits.grant(...args)) },
      }),
    });
    try {
      const key = (await app.issueKey()).key;
      const search = () => app.request("/v1/foods?q=apple&limit=1", { headers: { "x-api-key": key } });
      for (let i = 0; i < 100; i++) expect((await search()).status).toBe(200);
      const before = grants;
      const first = await search();
      expect(first.status).toBe(429);
      const retryAfter = Number(first.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3500);
      for (let i = 0; i < 49; i++) {
        const refused = await search();
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as any).code).toBe("RATE_LIMITED");
        expect(refused.headers.get("ratelimit")).toBe(first.headers.get("ratelimit"));
        expect(refused.headers.get("ratelimit")).toMatch(/^"free";r=0;t=\d+$/);
        expect(Number(refused.headers.get("retry-after"))).toBe(retryAfter);
      }
      // One grant refused the first; the other 49 were refused from it.
      expect(grants - before).toBe(1);
      // A lease's life later the store is asked again (another instance may have given quota back).
      now += 200;
      expect((await search()).status).toBe(429);
      expect(grants - before).toBe(2);
    } finally {
      await app.close();
    }
  });

  test("the window slides: quota comes back as the oldest requests leave it, never more than N in any window", async () => {
    let now = Date.parse("2026-03-01T00:00:00Z");
    const app = await createTestApp({ clock: () => now, env: { FOODAPI_FREE_LIMIT: "3/10s" } });
    try {
      const key = (await app.issueKey()).key;
      const call = async () => (await app.request("/v1/nutrients", { headers: { "x-api-key": key } })).status;
      const admitted: number[] = [];
      // One attempt every second for 40 s: at most 3 admitted in any 10 s span.
      for (let second = 0; second < 40; second++) {
        if ((await call()) === 200) admitted.push(now);
        now += 1000;
      }
      for (const at of admitted) expect(admitted.filter((x) => x >= at && x < at + 10_000).length).toBeLessThanOrEqual(3);
      expect(admitted.length).toBe(12);
    } finally {
      await app.close();
    }
  });
});
