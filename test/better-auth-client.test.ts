import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createAuthClient } from "better-auth/client";
import { startServer, type RunningServer } from "./helpers/binary";

/**
 * Better Auth's own client against the running binary: nothing adapts it but a cookie jar, which Node's
 * fetch lacks (a browser has its own).
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

function clientWithCookieJar() {
  const jar = new Map<string, string>();
  const customFetchImpl: typeof fetch = Object.assign(
    async (input: string | URL | Request, init?: RequestInit) => {
      const request = input instanceof Request ? new Request(input, init) : new Request(String(input), init);
      if (jar.size > 0) request.headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
      const response = await fetch(request);
      for (const line of response.headers.getSetCookie()) {
        const [pair = "", ...attributes] = line.split(";");
        const [name = "", value = ""] = pair.split("=");
        const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
        if (value === "" || expired) jar.delete(name.trim());
        else jar.set(name.trim(), value);
      }
      return response;
    },
    { preconnect: fetch.preconnect },
  );
  return { jar, client: createAuthClient({ baseURL: server.url, fetchOptions: { customFetchImpl } }) };
}

describe("Better Auth client", () => {
  test("sign-up, get-session, sign-out, sign-in", async () => {
    const { client, jar } = clientWithCookieJar();
    const signedUp = await client.signUp.email({ email: "client@example.com", password: "client password", name: "Client" });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data?.user.email).toBe("client@example.com");
    expect(jar.has("foodapi.session_token")).toBe(true);

    const session = await client.getSession();
    expect(session.error).toBeNull();
    expect(session.data?.user.email).toBe("client@example.com");
    expect(session.data?.session.userId).toBe(signedUp.data!.user.id);

    const signedOut = await client.signOut();
    expect(signedOut.error).toBeNull();
    expect(signedOut.data?.success).toBe(true);
    expect(jar.has("foodapi.session_token")).toBe(false);
    expect((await client.getSession()).data).toBeNull();

    const signedIn = await client.signIn.email({ email: "client@example.com", password: "client password" });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data?.user.name).toBe("Client");
    expect((await client.getSession()).data?.user.email).toBe("client@example.com");
  });

  test("errors arrive as error.code, error.message and error.status", async () => {
    const { client } = clientWithCookieJar();
    await client.signUp.email({ email: "taken@example.com", password: "password123", name: "T" });
    const duplicate = await client.signUp.email({ email: "taken@example.com", password: "password123", name: "T" });
    expect(duplicate.data).toBeNull();
    expect(duplicate.error).toMatchObject({ status: 422, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
    expect(duplicate.error?.message).toContain("already exists");

    const wrong = await client.signIn.email({ email: "taken@example.com", password: "wrong password" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });

    const short = await client.signUp.email({ email: "short@example.com", password: "short", name: "S" });
    expect(short.error).toMatchObject({ status: 400, code: "PASSWORD_TOO_SHORT" });
  });
});
