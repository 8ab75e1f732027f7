import { afterAll, describe, expect, test } from "bun:test";
import { jsonPost } from "../helpers/http";
import { createTestApp } from "../helpers/test-app";

/** What a new self-hoster meets in the first hour (issue: the first hour), in-process. */
const t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "100/1m" } });
afterAll(() => t.close());

describe("the dashboard's origin on a laptop", () => {
  const signUp = (email: string, origin: string) =>
    t.request("/api/auth/sign-up/email", jsonPost({ email, password: "password123", name: "L" }, { origin }));

  test("every loopback spelling of the default base URL is the service's own origin", async () => {
    expect((await signUp("a@example.com", "http://127.0.0.1:3000")).status).toBe(200);
    expect((await signUp("b@example.com", "http://localhost:3000")).status).toBe(200);
    expect((await signUp("c@example.com", "http://[::1]:3000")).status).toBe(200);
  });

  test("another origin is refused with a message that names the settings to change", async () => {
    for (const origin of ["http://localhost:4000", "https://localhost:3000", "http://evil.example"]) {
      const refused = await signUp("d@example.com", origin);
      expect(refused.status).toBe(403);
      const body = (await refused.json()) as { code: string; message: string };
      expect(body.code).toBe("INVALID_ORIGIN");
      expect(body.message).toContain("--base-url");
      expect(body.message).toContain("--trusted-origins");
    }
  });

  test("a public base URL does not trust loopback spellings", async () => {
    const app = await createTestApp({ env: { FOODAPI_BASE_URL: "https://food.example.com" } });
    try {
      const refused = await app.request("/api/auth/sign-up/email", jsonPost({ email: "p@example.com", password: "password123", name: "P" }, { origin: "http://localhost:3000" }));
      expect(refused.status).toBe(403);
      const document = (await (await app.request("/openapi/json")).json()) as { servers: { url: string }[] };
      expect(document.servers).toEqual([{ url: "https://food.example.com" }]);
    } finally {
      await app.close();
    }
  });
});
