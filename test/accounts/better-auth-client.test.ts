import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createAuthClient } from "better-auth/client";
import { startServer, type RunningServer } from "../helpers/binary";

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

describe("Better Auth client: account self-service (design §13)", () => {
  test("updateUser, listSessions, revokeSession, revokeOtherSessions, changePassword and deleteUser, unchanged", async () => {
    const laptop = clientWithCookieJar();
    const phone = clientWithCookieJar();
    const signedUp = await laptop.client.signUp.email({ email: "self@example.com", password: "self password", name: "Self" });
    expect(signedUp.error).toBeNull();
    expect((await phone.client.signIn.email({ email: "self@example.com", password: "self password" })).error).toBeNull();

    const renamed = await laptop.client.updateUser({ name: "Renamed" });
    expect(renamed.error).toBeNull();
    expect(renamed.data).toEqual({ status: true });
    expect((await phone.client.getSession()).data?.user.name).toBe("Renamed");
    const email = await laptop.client.updateUser({ name: "X", email: "new@example.com" } as { name: string });
    expect(email.error).toMatchObject({ status: 400, code: "EMAIL_CAN_NOT_BE_UPDATED" });

    const listed = await laptop.client.listSessions();
    expect(listed.error).toBeNull();
    const sessions = listed.data as unknown as { id: string; current: boolean; userAgent: string | null }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const phoneSession = sessions.find((s) => !s.current)!;

    // Better Auth's client names the session `token`: foodapi takes the session's id there.
    const revoked = await laptop.client.revokeSession({ token: phoneSession.id });
    expect(revoked.error).toBeNull();
    expect(revoked.data).toEqual({ status: true });
    expect((await phone.client.getSession()).data).toBeNull();
    const unknown = await laptop.client.revokeSession({ token: phoneSession.id });
    expect(unknown.error).toMatchObject({ status: 404, code: "SESSION_NOT_FOUND" });

    expect((await phone.client.signIn.email({ email: "self@example.com", password: "self password" })).error).toBeNull();
    const others = await laptop.client.revokeOtherSessions();
    expect(others.error).toBeNull();
    expect(others.data).toEqual({ status: true });
    expect((await phone.client.getSession()).data).toBeNull();
    expect((await laptop.client.getSession()).data?.user.email).toBe("self@example.com");

    expect((await phone.client.signIn.email({ email: "self@example.com", password: "self password" })).error).toBeNull();
    const wrong = await laptop.client.changePassword({ currentPassword: "not the password", newPassword: "new self password" });
    expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    const changed = await laptop.client.changePassword({ currentPassword: "self password", newPassword: "new self password", revokeOtherSessions: true });
    expect(changed.error).toBeNull();
    expect(changed.data?.token).toBe(laptop.jar.get("foodapi.session_token")!);
    expect(changed.data?.user.email).toBe("self@example.com");
    expect((await phone.client.getSession()).data).toBeNull();
    expect((await laptop.client.getSession()).data?.user.name).toBe("Renamed");
    expect((await phone.client.signIn.email({ email: "self@example.com", password: "self password" })).error).toMatchObject({ status: 401 });

    const refused = await laptop.client.deleteUser({ password: "self password" });
    expect(refused.error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    const deleted = await laptop.client.deleteUser({ password: "new self password" });
    expect(deleted.error).toBeNull();
    expect(deleted.data).toEqual({ success: true, message: "User deleted" });
    expect(laptop.jar.has("foodapi.session_token")).toBe(false);
    expect((await laptop.client.signIn.email({ email: "self@example.com", password: "new self password" })).error).toMatchObject({ status: 401 });
    expect((await laptop.client.signUp.email({ email: "self@example.com", password: "a third password", name: "Again" })).error).toBeNull();
  });
});
