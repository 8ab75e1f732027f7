import type { Clock } from "../platform/clock";
import { constantTimeEqual, newId, randomBase58, sha256Hex } from "../platform/security/tokens";
import type { Session, SessionStore, User } from "./store";

/** Where a session is started from, as the account's session list shows it (accounts/session-client.ts). */
export type SessionClient = Pick<Session, "ipAddress" | "userAgent">;

/**
 * Server-side sessions after the Copenhagen Book: a random token (256 bits) in the cookie, its SHA-256 in
 * the database, validation by lookup and constant-time compare. Failures return null; nothing throws.
 */
export const SESSION_COOKIE = "foodapi.session_token";
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** A session used more than this long after it was last extended gets a fresh 7 days. */
const SESSION_REFRESH_AFTER_SECONDS = 24 * 3600;
/**
 * Sessions an account keeps: a sign-in beyond it ends the account's oldest, so that a script signing in
 * over and over cannot grow the session list (and the state) without end.
 */
export const MAX_SESSIONS_PER_ACCOUNT = 100;

export interface ValidSession {
  session: Session;
  user: User;
  /** True when this validation extended the expiry: the cookie should be sent again. */
  extended: boolean;
}

/** A new session for the account: its token (for the cookie, never stored) and the record to store. */
export function newSession(clock: Clock, userId: string, persistent: boolean, client: SessionClient): { token: string; session: Session } {
  const token = randomBase58(32);
  const now = clock();
  const session: Session = {
    id: newId("ses"),
    tokenHash: sha256Hex(token),
    userId,
    expiresAt: now + SESSION_TTL_SECONDS * 1000,
    persistent,
    ipAddress: client.ipAddress,
    userAgent: client.userAgent,
    createdAt: now,
    updatedAt: now,
  };
  return { token, session };
}

/**
 * Starts a session for the account whose password was just verified: the token for the cookie. Null, with
 * nothing stored, when the account's password changed since it was read, or it was disabled or deleted:
 * the session is tied to the credential it was verified against (SessionStore.insert).
 */
export async function createSession(store: SessionStore, clock: Clock, user: User, persistent: boolean, client: SessionClient): Promise<string | null> {
  if (user.passwordHash === null) return null;
  const { token, session } = newSession(clock, user.id, persistent, client);
  const stored = await store.insert(session, { whilePasswordHash: user.passwordHash, maxPerAccount: MAX_SESSIONS_PER_ACCOUNT });
  return stored ? token : null;
}

export async function validateSession(store: SessionStore, clock: Clock, token: string | undefined): Promise<ValidSession | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = sha256Hex(token);
  const found = await store.findByTokenHash(tokenHash);
  if (!found || !constantTimeEqual(found.session.tokenHash, tokenHash)) return null;
  const now = clock();
  // A disabled account's sessions are deleted with the disabling; one a sign-in racing it created is refused here.
  if (now >= found.session.expiresAt || found.user.disabledAt !== null) {
    await store.delete(found.session.id);
    return null;
  }
  const lastExtended = found.session.expiresAt - SESSION_TTL_SECONDS * 1000;
  if (now - lastExtended > SESSION_REFRESH_AFTER_SECONDS * 1000) {
    const expiresAt = now + SESSION_TTL_SECONDS * 1000;
    await store.extend(found.session.id, expiresAt, now);
    return { session: { ...found.session, expiresAt, updatedAt: now }, user: found.user, extended: true };
  }
  return { ...found, extended: false };
}

export async function invalidateSession(store: SessionStore, sessionId: string): Promise<void> {
  await store.delete(sessionId);
}
