import { Elysia } from "elysia";
import { STATE_ERROR } from "../platform/http/error-catalog";
import { apiError } from "./errors";
import { JSON_CONTENT_TYPE } from "../platform/http/errors";
import { noStoreUnder } from "../platform/http/no-store";
import { originCheck } from "../platform/http/origin-check";
import { operation } from "../platform/http/route-notes";
import { clearSessionCookie, resendIfExtended, sessionTokenFrom, setSessionCookie } from "./cookie";
import { GetSessionResponse, SignInBody, SignInResponse, SignUpBody, SignUpResponse } from "./model";
import { passwordFailureLimitInWords } from "./password-check";
import { signIn, signUp, toSessionJson, toUserJson } from "./service";
import { createSession, invalidateSession, newSession, validateSession } from "./sessions";
import { exampleSession as session, exampleUser as user } from "./examples";
import { AUTH_LIMIT, type AuthRouteDeps } from "./route-deps";
import { selfServiceRoutes } from "./self-service-routes";
import { sessionClientOf } from "./session-client";

/** Written out here, not left to Elysia, which would answer `null` with an empty body. */
const sessionAnswer = (body: typeof GetSessionResponse.static) => new Response(JSON.stringify(body), { headers: { "content-type": JSON_CONTENT_TYPE } });
/** What sign-up and sign-in can answer besides their own errors: the body, the origin, the IP limit. */
const AUTH_ERRORS = ["VALIDATION_ERROR", "INVALID_ORIGIN", "TOO_MANY_REQUESTS", STATE_ERROR] as const;


/**
 * `/api/auth/*`: sign-up, sign-in, get-session and sign-out with Better Auth's shapes, and the account's
 * self-service (self-service-routes.ts).
 */
export function authRoutes(deps: AuthRouteDeps) {
  const { accounts, sessions, clock, secureCookies } = deps;
  const signUpAndIn = new Elysia()
    .post(
      "/sign-up/email",
      async ({ body, cookie, request }) => {
        const client = sessionClientOf(request, deps.config.clientIpHeader);
        let token = "";
        // The account and its first session are written together: a failed write leaves neither, so a
        // retry is a clean sign-up rather than "e-mail taken" without a session.
        const user = await signUp(accounts, clock, body, (userId) => {
          const created = newSession(clock, userId, true, client);
          token = created.token;
          return created.session;
        });
        setSessionCookie(cookie, token, { secure: secureCookies, persistent: true });
        return { token, user: toUserJson(user) };
      },
      {
        body: SignUpBody,
        response: { 200: SignUpResponse },
        detail: operation({
          summary: "Create an account; the caller is signed in",
          description: "Creates the account and signs it in: the response sets the session cookie.",
          tags: ["Accounts"],
          credential: "none",
          errors: [...AUTH_ERRORS, "INVALID_EMAIL", "PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG", "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"],
          ipLimit: AUTH_LIMIT,
          requestExample: { email: "you@example.com", password: "a long password", name: "You" },
          examples: { "200": { token: "<session token>", user } },
          setsCookie: true,
        }),
      },
    )
    .post(
      "/sign-in/email",
      async ({ body, cookie, request }) => {
        const user = await signIn(deps, body);
        const persistent = body.rememberMe !== false;
        const token = await createSession(sessions, clock, user, persistent, sessionClientOf(request, deps.config.clientIpHeader));
        // The password changed, or the account was disabled or deleted, while it was being verified: the
        // password checked is no longer the account's, the same answer as a wrong one.
        if (token === null) throw apiError("INVALID_EMAIL_OR_PASSWORD");
        setSessionCookie(cookie, token, { secure: secureCookies, persistent });
        return { redirect: false as const, token, user: toUserJson(user) };
      },
      {
        body: SignInBody,
        response: { 200: SignInResponse },
        detail: operation({
          summary: "Sign in with e-mail and password",
          description: `An unknown e-mail and a wrong password get the same 401; the right password of an account the operator disabled (\`foodapi users disable\`) gets 403 \`BANNED_USER\`. \`rememberMe: false\` makes the cookie end with the browser session. Besides the per-IP limit, each e-mail address, with an account or not, may have ${passwordFailureLimitInWords(deps.config.passwordFailureLimit)} from any IP; past it, 429 whatever the password. Change-password and delete-user count apart (per account, behind its session): neither count locks the other out.`,
          tags: ["Accounts"],
          credential: "none",
          errors: [...AUTH_ERRORS, "INVALID_EMAIL_OR_PASSWORD", "BANNED_USER", "PASSWORD_ATTEMPTS_LIMITED"],
          ipLimit: AUTH_LIMIT,
          requestExample: { email: "you@example.com", password: "a long password" },
          examples: { "200": { redirect: false, token: "<session token>", user } },
          setsCookie: true,
        }),
      },
    );

  return new Elysia({ prefix: "/api/auth" })
    // Every answer here is about an account, or carries a session token.
    .use(noStoreUnder(["/api/auth"]))
    .use(originCheck(deps.allowedOrigins))
    .use(signUpAndIn)
    .use(selfServiceRoutes(deps))
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
        detail: operation({
          summary: "The current session and user, or null",
          description: "Answers 200 `null` without a valid session.",
          tags: ["Accounts"],
          credential: "optionalSession",
          errors: [STATE_ERROR],
          examples: { "200": { session, user } },
        }),
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
      {
        detail: operation({
          summary: "End the session (server-side) and clear the cookie",
          description: "Deletes the session server-side and clears the cookie. Idempotent: 200 without a session too.",
          tags: ["Accounts"],
          credential: "optionalSession",
          errors: ["INVALID_ORIGIN", STATE_ERROR],
          responses: {
            "200": {
              description: "Signed out",
              schema: { type: "object", required: ["success"], properties: { success: { const: true, type: "boolean" } } },
              example: { success: true },
            },
          },
          setsCookie: true,
        }),
      },
    );
}
