import type { MaybePromise } from "../platform/maybe-promise";

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
  /**
   * Where the session was started, for the account's own session list: the client IP as rate limits see
   * it (platform/http/client-ip.ts: an IPv6 address as its /64) and the User-Agent (cut short); null when unknown.
   */
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What deleting an account removed besides it, for the callers that must tell other processes. */
export interface DeletedAccount {
  /** Every key of the account (revoked ones too): each process drops them from its key cache. */
  keys: { id: string; keyHash: string }[];
}

/**
 * What goes with an account inside its deletion's transaction: its keys and what refers to them, which other
 * capabilities keep. A backend's account store is given it where the stores are put together (src/app/state/),
 * so that accounts, which the keys refer to, know nothing of them. Returns the keys it deleted (a promise of them on PostgreSQL).
 */
export type DeleteOwned<Tx, Keys = DeletedAccount["keys"]> = (tx: Tx, userId: string, now: number) => Keys;

export interface PasswordChanged {
  user: User;
  /** The sessions `endSessions` ended (not counting the replacement). */
  sessionsEnded: number;
}

export interface PasswordChangeOptions {
  /**
   * The password hash the caller verified the current password against: the change is made only while the
   * account still has it, checked atomically with the write. Another change committed in between (the
   * operator's `users set-password`, another session's change-password) then wins, and this one changes
   * nothing; without it the later write would silently undo the earlier. The operator's reset gives none.
   */
  whilePasswordHash?: string;
  endSessions?: { replaceWith?: Session };
}

export interface AccountStore {
  findByEmail(email: string): MaybePromise<User | undefined>;
  findById(userId: string): MaybePromise<User | undefined>;
  /**
   * Creates the account and, when given, its first session, atomically: both are written or neither.
   * Undefined, with nothing written, when the e-mail is taken; of two racing inserts of one e-mail
   * exactly one succeeds.
   */
  insert(user: User, firstSession?: Session): MaybePromise<User | undefined>;
  /** How many accounts there are (the metrics' gauge). */
  count(): MaybePromise<number>;
  /** Sets the account's name (and updatedAt); the account as it now is, undefined when there is none. */
  rename(userId: string, name: string, now: number): MaybePromise<User | undefined>;
  /**
   * Sets the password hash (and updatedAt). With `endSessions`, every session of the account ends in the
   * same transaction, and `endSessions.replaceWith` (when given) is stored instead: no moment where the old
   * sessions still work with the new password, nor one without a session. The account as it now is and how
   * many sessions ended; undefined, with nothing changed, when there is no such account or it no longer has
   * `whilePasswordHash` (when given).
   */
  changePassword(userId: string, passwordHash: string, now: number, options?: PasswordChangeOptions): MaybePromise<PasswordChanged | undefined>;
  /**
   * Deletes the account and everything kept of it, in one transaction: its sessions, all its keys (active
   * and revoked) and their usage counts. Undefined, with nothing deleted, when there is no such account or
   * it no longer has `whilePasswordHash` (when given). The e-mail is free again at once. (Rate-limit
   * counters live in the LimitStore, possibly elsewhere: the caller forgets those.)
   */
  delete(userId: string, now: number, bounds?: { whilePasswordHash?: string }): MaybePromise<DeletedAccount | undefined>;
  /** Every account, oldest first (the admin CLI's `users list`). */
  list(): MaybePromise<User[]>;
  /**
   * Disables the account (`disabledAt` = now) or enables it (null); `updatedAt` becomes now. Returns the
   * account as it now is; undefined for an unknown id. Disabling a disabled account keeps its first time.
   */
  setDisabled(userId: string, disabled: boolean, now: number): MaybePromise<User | undefined>;
}

/** What a sign-in's session is stored under (SessionStore.insert). */
export interface SessionBounds {
  /**
   * The password hash the sign-in verified: the session is stored only while the account still has it (and
   * exists, and is not disabled). A password change, a disabling or a deletion racing the sign-in then either
   * commits first, and nothing is stored, or after, and ends this session with the others.
   */
  whilePasswordHash: string;
  /** The account keeps at most this many sessions: storing one more ends the oldest others (by createdAt). */
  maxPerAccount: number;
}

/** Sessions are found by the hash of their token only. */
export interface SessionStore {
  /**
   * Stores a sign-in's session within `bounds`, atomically with their checks: true when it was stored;
   * false, with nothing written, when the account no longer has that password hash, is disabled or gone.
   * The new session always stays; of the account's others, the newest `maxPerAccount - 1` do.
   */
  insert(session: Session, bounds: SessionBounds): MaybePromise<boolean>;
  /** The session and its account; undefined when unknown (expiry is the caller's rule). */
  findByTokenHash(tokenHash: string): MaybePromise<{ session: Session; user: User } | undefined>;
  extend(id: string, expiresAt: number, now: number): MaybePromise<void>;
  delete(id: string): MaybePromise<void>;
  /** The account's sessions, expired ones included (expiry is the caller's rule), newest first. */
  listOfUser(userId: string): MaybePromise<Session[]>;
  /** Deletes the session if it is this account's; false when it is unknown or another account's. */
  deleteOfUser(userId: string, id: string): MaybePromise<boolean>;
  /** Deletes every session of the account but `keepId`; returns how many went. */
  deleteOthersOfUser(userId: string, keepId: string): MaybePromise<number>;
  /** Deletes up to `batch` sessions expired at `now`; returns how many went. */
  sweepExpired(now: number, batch: number): MaybePromise<number>;
}
