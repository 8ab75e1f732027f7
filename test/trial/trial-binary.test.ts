import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERRORS } from "../../src/app/error-catalog";
import { obtainTrialToken } from "../helpers/altcha";
import { startServer } from "../helpers/binary";
import { jsonPost } from "../helpers/http";

const fetcherFor = (url: string) => (path: string, init?: RequestInit) => fetch(`${url}${path}`, init);

describe("trial tokens against the compiled binary", () => {
  test("60 concurrent requests with a fresh token: exactly 30 × 200 and 30 × 429", async () => {
    const server = await startServer();
    try {
      const { token } = await obtainTrialToken(fetcherFor(server.url));
      const responses = await Promise.all(
        Array.from({ length: 60 }, () => fetch(`${server.url}/v1/foods?q=cheese`, { headers: { authorization: `Bearer ${token}` } })),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);
      const remaining = responses.filter((r) => r.status === 200).map((r) => Number(/r=(\d+)/.exec(r.headers.get("ratelimit")!)![1]));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      for (const r of responses.filter((r) => r.status === 429)) {
        expect(((await r.json()) as any).code).toBe("TRIAL_QUOTA_EXHAUSTED");
        expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    } finally {
      await server.stop();
    }
  });

  test("a restart keeps the secret and the count: the token still works with what it had left", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-trial-restart-"));
    const first = await startServer({ cwd });
    const { token } = await obtainTrialToken(fetcherFor(first.url));
    const call = (url: string) => fetch(`${url}/v1/nutrients`, { headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 12; i++) expect((await call(first.url)).status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startServer({ cwd });
    try {
      const next = await call(second.url);
      expect(next.status).toBe(200);
      expect(next.headers.get("ratelimit")).toMatch(/^"trial";r=17;/);
      for (let i = 0; i < 17; i++) expect((await call(second.url)).status).toBe(200);
      expect((await call(second.url)).status).toBe(429);
    } finally {
      await second.stop();
    }
  });
});

describe("a data route's bad body against the compiled binary", () => {
  test("41 bad lookups with a fresh token: each 4xx costs one unit and carries RateLimit, then 429", async () => {
    const server = await startServer();
    try {
      const { token } = await obtainTrialToken(fetcherFor(server.url));
      // Not JSON; JSON that is no lookup; over the limit (fetch declares its length).
      const bodies = ["{bad", JSON.stringify({ foodNumbers: "01001" }), JSON.stringify({ foodNumbers: ["01001"], nutrients: Array.from({ length: 5000 }, () => "203") })];
      const answers: [number, string, string | null][] = [];
      for (let i = 0; i < 41; i++) {
        const response = await fetch(`${server.url}/v1/foods/lookup`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: bodies[i % bodies.length],
        });
        answers.push([response.status, ((await response.json()) as any).code, /r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")?.[1] ?? null]);
      }
      const statuses = [[400, "INVALID_JSON"], [400, "VALIDATION_ERROR"], [413, "PAYLOAD_TOO_LARGE"]] as const;
      expect(answers).toEqual(answers.map((_, i) => (i < 30 ? [...statuses[i % 3]!, String(29 - i)] : [429, "TRIAL_QUOTA_EXHAUSTED", "0"])));
    } finally {
      await server.stop();
    }
  });
});

describe("Turnstile mode against a local stand-in siteverify", () => {
  test("success, failure and a verifier that never answers (503 JSON with Retry-After after --turnstile-timeout-ms, not a hang)", async () => {
    const TIMEOUT_MS = 300;
    const seen: URLSearchParams[] = [];
    // The stand-in holds a "slow" verification until the test ends: it never answers in time, however slow the machine.
    const testEnded = Promise.withResolvers<void>();
    const siteverify = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const form = new URLSearchParams(await request.text());
        seen.push(form);
        if (form.get("response") === "slow") await testEnded.promise;
        return Response.json({ success: form.get("response") === "good-token" });
      },
    });
    const server = await startServer({
      args: ["--turnstile-timeout-ms", String(TIMEOUT_MS)],
      env: { TURNSTILE_SECRET_KEY: "turnstile-test-secret", TURNSTILE_VERIFY_URL: `http://127.0.0.1:${siteverify.port}/siteverify` },
    });
    try {
      const redeem = (challengeToken: string) => fetch(`${server.url}/v1/trial-token`, jsonPost({ challengeToken }, { "cf-connecting-ip": "192.0.2.9" }));
      const ok = await redeem("good-token");
      expect(ok.status).toBe(201);
      const { token } = (await ok.json()) as { token: string };
      expect((await fetch(`${server.url}/v1/food-groups`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect(seen[0]!.get("secret")).toBe("turnstile-test-secret");
      expect(seen[0]!.get("remoteip")).toBe("192.0.2.9");

      const failed = await redeem("bad-token");
      expect(failed.status).toBe(403);
      expect(((await failed.json()) as any).code).toBe("CHALLENGE_FAILED");

      const started = performance.now();
      const slow = await redeem("slow");
      const waited = performance.now() - started;
      expect(slow.status).toBe(503);
      expect(slow.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      // The OpenAPI document's example is what the API says (see test/app/error-catalog.test.ts).
      expect(await slow.json()).toEqual({ code: "CHALLENGE_UNAVAILABLE", message: ERRORS.CHALLENGE_UNAVAILABLE[1] });
      // It waited for the verifier as long as the setting says, and no longer than the 5 s default would.
      expect(seen.at(-1)!.get("response")).toBe("slow");
      expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(waited).toBeLessThan(5_000);

      // The ALTCHA challenge route is not served in Turnstile mode.
      expect((await fetch(`${server.url}/v1/trial-challenge`)).status).toBe(404);
    } finally {
      testEnded.resolve();
      await server.stop();
      siteverify.stop(true);
    }
  });
});
