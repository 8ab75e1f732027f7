import type { Cookie } from "elysia";
import { SESSION_COOKIE, SESSION_TTL_SECONDS, type ValidSession } from "./sessions";

/**
 * Writing the session cookie through Elysia's built-in cookie API (the @elysiajs/cookie plugin is
 * deprecated). Setting and clearing use the same attributes: a clearing header without HttpOnly and
 * SameSite is what `remove()` would send, and some browsers then keep the old cookie.
 */
export type CookieJar = Record<string, Cookie<unknown>>;

export function setSessionCookie(jar: CookieJar, token: string, options: { secure: boolean; persistent: boolean }): void {
  jar[SESSION_COOKIE]!.set({
    value: token,
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: options.secure,
    // Without Max-Age the cookie lasts for the browser session (rememberMe: false).
    maxAge: options.persistent ? SESSION_TTL_SECONDS : undefined,
  });
}

export function clearSessionCookie(jar: CookieJar, options: { secure: boolean }): void {
  jar[SESSION_COOKIE]!.set({ value: "", httpOnly: true, sameSite: "lax", path: "/", secure: options.secure, maxAge: 0 });
}

export function sessionTokenFrom(jar: CookieJar): string | undefined {
  const value = jar[SESSION_COOKIE]?.value;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The session token from a raw Cookie header, for checks made before Elysia parses cookies. Session tokens
 * are base58, so the value needs no decoding; a repeated cookie counts once, the first.
 */
export function sessionTokenFromHeader(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq !== -1 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * A validation that extended the session sends the cookie again with the new lifetime; a browser-session
 * cookie (`rememberMe: false`) stays one.
 */
export function resendIfExtended(jar: CookieJar, token: string, valid: Pick<ValidSession, "extended" | "session">, options: { secure: boolean }): void {
  if (valid.extended && valid.session.persistent) setSessionCookie(jar, token, { secure: options.secure, persistent: true });
}
