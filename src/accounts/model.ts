import { t } from "elysia";
import { documentedAs, lenient } from "../platform/http/schema";
import { EMAIL_MAX_LENGTH } from "./email";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./passwords";

/** Request and response schemas of /api/auth/*, shaped like Better Auth's so its client works unchanged. */

/** A user's name, in code points after trimming. */
export const USER_NAME_MAX_LENGTH = 100;

/**
 * The bodies' rules are declared here, for the document; Elysia validates a `lenient` copy, so that the
 * service answers a broken rule with its own code (INVALID_EMAIL, PASSWORD_TOO_SHORT, ...) and counts
 * code points, as JSON Schema does.
 */
export const SignUpBody = lenient(
  t.Object({
    email: t.String({ format: "email", maxLength: EMAIL_MAX_LENGTH, description: `Trimmed and lower-cased; at most ${EMAIL_MAX_LENGTH} characters.` }),
    password: t.String({
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
    }),
    name: t.String({ minLength: 1, maxLength: USER_NAME_MAX_LENGTH, description: `1 to ${USER_NAME_MAX_LENGTH} characters after trimming.` }),
  }),
);

export const SignInBody = lenient(
  t.Object({
    email: t.String({ format: "email", maxLength: EMAIL_MAX_LENGTH }),
    password: t.String(),
    rememberMe: t.Optional(t.Boolean({ description: "false: the cookie ends with the browser session." })),
  }),
);

export const UserJson = t.Object({
  id: t.String(),
  email: t.String(),
  name: t.String(),
  emailVerified: t.Boolean(),
  image: t.Union([t.String(), t.Null()]),
  createdAt: t.String({ format: "date-time" }),
  updatedAt: t.String({ format: "date-time" }),
});

export const SessionJson = t.Object({
  id: t.String(),
  userId: t.String(),
  expiresAt: t.String({ format: "date-time" }),
  createdAt: t.String({ format: "date-time" }),
  updatedAt: t.String({ format: "date-time" }),
});

export const SignUpResponse = t.Object({ token: t.String(), user: UserJson });
export const SignInResponse = t.Object({ redirect: t.Literal(false), token: t.String(), user: UserJson });
export const GetSessionResponse = t.Union([t.Object({ session: SessionJson, user: UserJson }), t.Null()]);

export type SignUpBody = typeof SignUpBody.static;
export type SignInBody = typeof SignInBody.static;
export type UserJson = typeof UserJson.static;
export type SessionJson = typeof SessionJson.static;

/* Account self-service (design §13), with Better Auth's shapes. */

const newPassword = t.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
});

export const ChangePasswordBody = lenient(
  t.Object({
    currentPassword: t.String(),
    newPassword,
    revokeOtherSessions: t.Optional(t.Boolean({ description: "true: every other session of the account ends; the caller gets a fresh session." })),
  }),
);
export const ChangePasswordResponse = t.Object({
  token: t.Union([t.String(), t.Null()], { description: "The fresh session's token with `revokeOtherSessions: true`, else null." }),
  user: UserJson,
});

const userName = t.String({ minLength: 1, maxLength: USER_NAME_MAX_LENGTH, description: `1 to ${USER_NAME_MAX_LENGTH} characters after trimming.` });

/** `email` is accepted by the validator only so that the service can refuse it with its own code. */
export const UpdateUserBody = documentedAs(
  t.Object({ name: t.Optional(t.String()), email: t.Optional(t.Unknown()) }),
  t.Object({ name: userName }, { description: "Only the name can be changed; a body with `email` is refused (EMAIL_CAN_NOT_BE_UPDATED)." }),
);

export const DeleteUserBody = t.Object({ password: t.String({ description: "The account's password: required, as there is no e-mail confirmation." }) });
export const DeleteUserResponse = t.Object({ success: t.Literal(true), message: t.String() });

export const StatusResponse = t.Object({ status: t.Literal(true) });

export const ListedSession = t.Object({
  id: t.String(),
  createdAt: t.String({ format: "date-time" }),
  updatedAt: t.String({ format: "date-time" }),
  expiresAt: t.String({ format: "date-time" }),
  ipAddress: t.Union([t.String(), t.Null()], { description: "The client IP at sign-in (an IPv6 address as its /64); null if unknown." }),
  userAgent: t.Union([t.String(), t.Null()], { description: "The browser's User-Agent at sign-in, shortened; null if none." }),
  current: t.Boolean({ description: "true for the session of this request." }),
});
export const SessionList = t.Array(ListedSession);

/**
 * The session to end is named by its `id` (from list-sessions). Better Auth's client sends the same value
 * as `token` (`revokeSession({ token })`): accepted too, meaning the id; `id` wins when both are given.
 */
export const RevokeSessionBody = documentedAs(
  t.Object({ id: t.Optional(t.String()), token: t.Optional(t.String()) }),
  t.Object(
    {
      id: t.Optional(t.String({ description: "The session's id, as list-sessions shows it." })),
      token: t.Optional(t.String({ description: "The same id under Better Auth's client's field name (`revokeSession({ token: id })`)." })),
    },
    { description: "One of `id` or `token`, both meaning the session's id (session tokens themselves are never shown)." },
  ),
);

export type ListedSession = typeof ListedSession.static;
