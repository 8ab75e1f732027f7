import { t } from "elysia";
import { lenient } from "../http/schema";
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
