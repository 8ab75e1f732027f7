import type { MaybePromise } from "../maybe-promise";

/**
 * What the accounts capability keeps, and the contracts of the stores that keep it. Every backend
 * (SQLite in the data directory, PostgreSQL for many instances) implements these and passes the same
 * contract suite (test/contracts/). Times are epoch milliseconds.
 */

/** An account, shaped like Better Auth's `user` so its client reads it unchanged. */
export interface User {
  id: string;
  /** Trimmed and lower-cased; unique. */
  email: string;
  name: string;
  emailVerified: boolean;
  image: string | null;
  /** argon2id PHC string; null for an account made by `foodapi keys create`, which has no password yet. */
  passwordHash: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A server-side session: the cookie carries a random token, only its SHA-256 is kept. */
export interface Session {
  id: string;
  tokenHash: string;
  userId: string;
  expiresAt: number;
  /** false for `rememberMe: false`: the cookie then lives only as long as the browser session. */
  persistent: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface AccountStore {
  findByEmail(email: string): MaybePromise<User | undefined>;
  /**
   * Creates the account and, when given, its first session, atomically: both are written or neither.
   * Undefined, with nothing written, when the e-mail is taken; of two racing inserts of one e-mail
   * exactly one succeeds.
   */
  insert(user: User, firstSession?: Session): MaybePromise<User | undefined>;
  /** How many accounts there are (the metrics' gauge). */
  count(): MaybePromise<number>;
}

/** Sessions are found by the hash of their token only. */
export interface SessionStore {
  insert(session: Session): MaybePromise<void>;
  /** The session and its account; undefined when unknown (expiry is the caller's rule). */
  findByTokenHash(tokenHash: string): MaybePromise<{ session: Session; user: User } | undefined>;
  extend(id: string, expiresAt: number, now: number): MaybePromise<void>;
  delete(id: string): MaybePromise<void>;
  /** Deletes up to `batch` sessions expired at `now`; returns how many went. */
  sweepExpired(now: number, batch: number): MaybePromise<number>;
}
