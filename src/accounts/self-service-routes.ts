import { Elysia } from "elysia";
import { STATE_ERROR } from "../platform/http/error-catalog";
import { operation } from "../platform/http/route-notes";
import { clearSessionCookie, setSessionCookie } from "./cookie";
import { exampleSession, exampleUser } from "./examples";
import {
  ChangePasswordBody,
  ChangePasswordResponse,
  DeleteUserBody,
  DeleteUserResponse,
  RevokeSessionBody,
  SessionList,
  StatusResponse,
  UpdateUserBody,
} from "./model";
import { AUTH_LIMIT, type AuthRouteDeps } from "./route-deps";
import { passwordFailureLimitInWords } from "./password-check";
import { changePassword, deleteAccount, listSessions, renameUser, revokeSession } from "./self-service";
import { toUserJson } from "./service";
import { sessionClientOf } from "./session-client";
import { sessionGuard } from "./session-guard";
import { MAX_SESSIONS_PER_ACCOUNT } from "./sessions";

const AUTH = "/api/auth";
/** What every self-service route can answer: no session, and the store. */
const SESSION_ERRORS = ["SIGN_IN_REQUIRED", STATE_ERROR] as const;
/** ... and a state change from another site's page (the CSRF rule, design §4). */
const CHANGE_ERRORS = [...SESSION_ERRORS, "INVALID_ORIGIN"] as const;
/** ... and, for a route that takes the password, a wrong one, and the per-IP and per-account limits. */
const PASSWORD_ERRORS = [...CHANGE_ERRORS, "INVALID_PASSWORD", "TOO_MANY_REQUESTS", "PASSWORD_ATTEMPTS_LIMITED"] as const;

/**
 * The signed-in account's own routes under `/api/auth` (design §13), shaped like Better Auth's so that
 * its client's `changePassword`, `updateUser`, `deleteUser`, `listSessions`, `revokeSession` and
 * `revokeOtherSessions` work unchanged. Mounted inside authRoutes, which checks origins.
 */
export function selfServiceRoutes(deps: AuthRouteDeps) {
  const { accounts, sessions, clock, secureCookies } = deps;
  // The password checked, then the write: a password set in between (another session's change, the
  // operator's reset) wins, and the write is not made (self-service.ts).
  const changedMeanwhile = "A password changed in between, by another session or `foodapi users set-password`, wins: nothing is changed and the answer is 400 INVALID_PASSWORD.";
  const limits = `Counted against the per-IP sign-in limit, and against the account's limit of ${passwordFailureLimitInWords(deps.config.passwordFailureLimit)} for change-password and delete-user together (from any IP; 429 past it). Sign-in counts its wrong passwords apart: neither count locks the other route out.`;

  // The routes that take the account's password try a password, like signing in: each is counted against
  // the same per-IP limit (its own bucket, as each auth route has), and checks the password through
  // verifyAccountPassword (password-check.ts), which limits wrong ones per account, in the count of the
  // account's sessions (sessionFailureBucket), apart from sign-in's. A route that takes a password belongs here.
  const passwordRoutes = new Elysia()
    .use(sessionGuard(deps, [`${AUTH}/change-password`, `${AUTH}/delete-user`], "SIGN_IN_REQUIRED"))
    .post(
      "/change-password",
      async ({ body, account, cookie, request }) => {
        const changed = await changePassword(deps, account, body, sessionClientOf(request, deps.config.clientIpHeader));
        if (changed.token) setSessionCookie(cookie, changed.token, { secure: secureCookies, persistent: changed.persistent });
        return { token: changed.token, user: toUserJson(changed.user) };
      },
      {
        body: ChangePasswordBody,
        response: { 200: ChangePasswordResponse },
        detail: operation({
          summary: "Change the password",
          description:
            `Needs the current password. With \`revokeOtherSessions: true\` every session of the account ends (other browsers are signed out) and the caller gets a fresh session: its cookie, and its token in \`token\`. ${limits} ${changedMeanwhile}`,
          tags: ["Accounts"],
          credential: "session",
          errors: [...PASSWORD_ERRORS, "VALIDATION_ERROR", "PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG"],
          ipLimit: AUTH_LIMIT,
          requestExample: { currentPassword: "a long password", newPassword: "an even longer password", revokeOtherSessions: true },
          examples: { "200": { token: "<session token>", user: exampleUser } },
          setsCookie: "whenChanged",
        }),
      },
    )
    .post(
      "/delete-user",
      async ({ body, account, cookie }) => {
        await deleteAccount(deps, account.user, body.password);
        clearSessionCookie(cookie, { secure: secureCookies });
        return { success: true as const, message: "User deleted" };
      },
      {
        body: DeleteUserBody,
        response: { 200: DeleteUserResponse },
        detail: operation({
          summary: "Delete the account, its sessions, keys and usage",
          description:
            `Needs the account's password. ${limits} ${changedMeanwhile} Everything kept of the account goes at once: its sessions end, its usage and counters are deleted, and the e-mail can sign up again. Its keys get the uniform 401 ${deps.accountKeys.refusedWhen}. Clears the cookie.`,
          tags: ["Accounts"],
          credential: "session",
          errors: [...PASSWORD_ERRORS, "VALIDATION_ERROR"],
          ipLimit: AUTH_LIMIT,
          requestExample: { password: "a long password" },
          examples: { "200": { success: true, message: "User deleted" } },
          setsCookie: true,
        }),
      },
    );

  const paths = ["update-user", "list-sessions", "revoke-session", "revoke-other-sessions"].map((path) => `${AUTH}/${path}`);
  const account = new Elysia()
    .use(sessionGuard(deps, paths, "SIGN_IN_REQUIRED"))
    .post(
      "/update-user",
      async ({ body, account }) => {
        await renameUser(deps, account.user.id, body);
        return { status: true as const };
      },
      {
        body: UpdateUserBody,
        response: { 200: StatusResponse },
        detail: operation({
          summary: "Change the account's name",
          description: "Only the name can be changed (1 to 100 characters after trimming). The e-mail cannot: a body with `email` is 400 EMAIL_CAN_NOT_BE_UPDATED.",
          tags: ["Accounts"],
          credential: "session",
          errors: [...CHANGE_ERRORS, "VALIDATION_ERROR", "EMAIL_CAN_NOT_BE_UPDATED"],
          requestExample: { name: "Your Name" },
          examples: { "200": { status: true } },
        }),
      },
    )
    .get("/list-sessions", ({ account }) => listSessions(sessions, clock, account), {
      response: { 200: SessionList },
      detail: operation({
        summary: "The account's sessions, newest first",
        description: `Each session with where it was started (client IP and User-Agent at sign-in); \`current\` marks the caller's. Name one by its \`id\` to end it. An account keeps at most ${MAX_SESSIONS_PER_ACCOUNT} sessions: a sign-in beyond that ends the oldest.`,
        tags: ["Accounts"],
        credential: "session",
        errors: SESSION_ERRORS,
        examples: {
          "200": [
            { ...sessionTimes, id: exampleSession.id, ipAddress: "203.0.113.9", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0", current: true },
          ],
        },
      }),
    })
    .post(
      "/revoke-session",
      async ({ body, account, cookie }) => {
        if (await revokeSession(sessions, account, body)) clearSessionCookie(cookie, { secure: secureCookies });
        return { status: true as const };
      },
      {
        body: RevokeSessionBody,
        response: { 200: StatusResponse },
        detail: operation({
          summary: "End one of the account's sessions",
          description:
            "Names the session by its `id` from list-sessions (Better Auth's client sends the same value as `token`). Another account's or an unknown session: 404. Ending the caller's own session clears its cookie.",
          tags: ["Accounts"],
          credential: "session",
          errors: [...CHANGE_ERRORS, "VALIDATION_ERROR", "SESSION_NOT_FOUND"],
          requestExample: { id: exampleSession.id },
          examples: { "200": { status: true } },
          setsCookie: "whenChanged",
        }),
      },
    )
    .post(
      "/revoke-other-sessions",
      async ({ account }) => {
        await sessions.deleteOthersOfUser(account.user.id, account.session.id);
        return { status: true as const };
      },
      {
        response: { 200: StatusResponse },
        detail: operation({
          summary: "End every session of the account but the caller's",
          tags: ["Accounts"],
          credential: "session",
          errors: CHANGE_ERRORS,
          examples: { "200": { status: true } },
        }),
      },
    );

  return new Elysia().use(passwordRoutes).use(account);
}

const sessionTimes = { createdAt: exampleSession.createdAt, updatedAt: exampleSession.updatedAt, expiresAt: exampleSession.expiresAt };
