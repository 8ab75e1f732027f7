import { Elysia } from "elysia";
import type { Config } from "../config/config";
import { JSON_CONTENT_TYPE, NO_STORE } from "../http/errors";
import { originCheck } from "../http/origin-check";
import type { Limiter } from "../limits/limiter";
import { ipRateLimit } from "../limits/http";
import { clearSessionCookie, resendIfExtended, sessionTokenFrom, setSessionCookie } from "./cookie";
import { GetSessionResponse, SignInBody, SignInResponse, SignUpBody, SignUpResponse } from "./model";
import { signIn, signUp, toSessionJson, toUserJson } from "./service";
import type { SessionDeps } from "./session-guard";
import { createSession, invalidateSession, newSession, validateSession } from "./sessions";
import type { AccountStore } from "./store";

export interface AuthRouteDeps extends SessionDeps {
  accounts: AccountStore;
  limiter: Limiter;
  config: Config;
  allowedOrigins: ReadonlySet<string>;
}

/** Written out here, not left to Elysia, which would answer `null` with an empty body. */
const sessionAnswer = (body: typeof GetSessionResponse.static) => new Response(JSON.stringify(body), { headers: { "content-type": JSON_CONTENT_TYPE } });

/** `/api/auth/*`: sign-up, sign-in, get-session and sign-out with Better Auth's shapes. */
export function authRoutes(deps: AuthRouteDeps) {
  const { accounts, sessions, clock, secureCookies } = deps;
  const limited = new Elysia()
    .use(ipRateLimit({ limiter: deps.limiter, spec: deps.config.authLimit, scope: "auth", clientIpHeader: deps.config.clientIpHeader }))
    .post(
      "/sign-up/email",
      async ({ body, cookie, set }) => {
        Object.assign(set.headers, NO_STORE);
        let token = "";
        // The account and its first session are written together: a failed write leaves neither, so a
        // retry is a clean sign-up rather than "e-mail taken" without a session.
        const user = await signUp(accounts, clock, body, (userId) => {
          const created = newSession(clock, userId, true);
          token = created.token;
          return created.session;
        });
        setSessionCookie(cookie, token, { secure: secureCookies, persistent: true });
        return { token, user: toUserJson(user) };
      },
      {
        body: SignUpBody,
        response: { 200: SignUpResponse },
        detail: { summary: "Create an account; the caller is signed in", tags: ["Accounts"] },
      },
    )
    .post(
      "/sign-in/email",
      async ({ body, cookie, set }) => {
        Object.assign(set.headers, NO_STORE);
        const user = await signIn(accounts, body);
        const persistent = body.rememberMe !== false;
        const token = await createSession(sessions, clock, user.id, persistent);
        setSessionCookie(cookie, token, { secure: secureCookies, persistent });
        return { redirect: false as const, token, user: toUserJson(user) };
      },
      {
        body: SignInBody,
        response: { 200: SignInResponse },
        detail: { summary: "Sign in with e-mail and password", tags: ["Accounts"] },
      },
    );

  return new Elysia({ prefix: "/api/auth" })
    .use(originCheck(deps.allowedOrigins))
    .use(limited)
    .get(
      "/get-session",
      async ({ cookie }) => {
        const token = sessionTokenFrom(cookie);
        const valid = await validateSession(sessions, clock, token);
        if (!valid || !token) return sessionAnswer(null);
        resendIfExtended(cookie, token, valid, { secure: secureCookies });
        return sessionAnswer({ session: toSessionJson(valid.session), user: toUserJson(valid.user) });
      },
      {
        response: { 200: GetSessionResponse },
        detail: { summary: "The current session and user, or null", tags: ["Accounts"] },
      },
    )
    .post(
      "/sign-out",
      async ({ cookie }) => {
        const valid = await validateSession(sessions, clock, sessionTokenFrom(cookie));
        if (valid) await invalidateSession(sessions, valid.session.id);
        clearSessionCookie(cookie, { secure: secureCookies });
        return { success: true };
      },
      { detail: { summary: "End the session (server-side) and clear the cookie", tags: ["Accounts"] } },
    );
}
