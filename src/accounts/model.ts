import { t } from "elysia";

/** Request and response schemas of /api/auth/*, shaped like Better Auth's so its client works unchanged. */

export const SignUpBody = t.Object({
  email: t.String({ description: "Trimmed and lower-cased; at most 254 characters." }),
  password: t.String({ description: "8 to 128 characters." }),
  name: t.String({ description: "1 to 100 characters." }),
});

export const SignInBody = t.Object({
  email: t.String(),
  password: t.String(),
  rememberMe: t.Optional(t.Boolean({ description: "false: the cookie ends with the browser session." })),
});

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
