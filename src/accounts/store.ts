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
  /**
   * When `foodapi users disable` disabled the account; null while it is enabled. A disabled account cannot
   * sign in, has no sessions, and its keys are refused (KeyStore.findActiveByHash does not find them).
   */
  disabledAt: number | null;
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
  /** Every account, oldest first (the admin CLI's `users list`). */
  list(): MaybePromise<User[]>;
  /**
   * Disables the account (`disabledAt` = now) or enables it (null); `updatedAt` becomes now. Returns the
   * account as it now is; undefined for an unknown id. Disabling a disabled account keeps its first time.
   */
  setDisabled(userId: string, disabled: boolean, now: number): MaybePromise<User | undefined>;
  /** Replaces the password hash; `updatedAt` becomes now. The account as it now is; undefined for an unknown id. */
  setPasswordHash(userId: string, passwordHash: string, now: number): MaybePromise<User | undefined>;
}

/** Sessions are found by the hash of their token only. */
export interface SessionStore {
  insert(session: Session): MaybePromise<void>;
  /** The session and its account; undefined when unknown (expiry is the caller's rule). */
  findByTokenHash(tokenHash: string): MaybePromise<{ session: Session; user: User } | undefined>;
  extend(id: string, expiresAt: number, now: number): MaybePromise<void>;
  delete(id: string): MaybePromise<void>;
  /** Deletes every session of the account (signed out everywhere); returns how many went. */
  deleteForUser(userId: string): MaybePromise<number>;
  /** Deletes up to `batch` sessions expired at `now`; returns how many went. */
  sweepExpired(now: number, batch: number): MaybePromise<number>;
}
