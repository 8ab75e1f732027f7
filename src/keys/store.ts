import type { MaybePromise } from "../platform/maybe-promise";

/**
 * What the keys capability keeps, and the contracts of its stores (see accounts/store.ts). Times are
 * epoch milliseconds.
 */

/** An API key as stored: only the SHA-256 of the whole key; the plaintext exists once, in the issue response. */
export interface ApiKey {
  id: string;
  userId: string;
  name: string;
  /** `fnk_` and the next 8 characters, to recognise the key in a list. */
  keyPrefix: string;
  keyHash: string;
  tier: "free";
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** Why insertWithinLimit stored nothing: the account has its `maxActive` keys, or it is gone (deleted meanwhile). */
export type KeyRefusal = "KEY_LIMIT_REACHED" | "ACCOUNT_NOT_FOUND";

export interface KeyStore {
  /**
   * Inserts the key unless its account already has `maxActive` active keys or no longer exists; the reason
   * then. Parallel inserts for one account never leave it with more than `maxActive`; an insert racing the
   * account's deletion is stored (and deleted with it) or refused, never an error.
   */
  insertWithinLimit(key: ApiKey, maxActive: number): MaybePromise<ApiKey | KeyRefusal>;
  /** The key with this hash unless it is revoked or its account is disabled (`User.disabledAt`). */
  findActiveByHash(keyHash: string): MaybePromise<ApiKey | undefined>;
  /** The account's active keys, newest first; of two issued in the same millisecond, the later first. */
  listActive(userId: string): MaybePromise<ApiKey[]>;
  /** Revokes the account's own active key and returns it; undefined when there is none such (not theirs, unknown, revoked). */
  revoke(userId: string, keyId: string, now: number): MaybePromise<ApiKey | undefined>;
  /** Renames the account's own active key and returns it; undefined when there is none such (as `revoke`). */
  rename(userId: string, keyId: string, name: string): MaybePromise<ApiKey | undefined>;
  /** Sets `lastUsedAt` to `now` unless it is already `staleBefore` or later (the contract's coarse last use). */
  touch(keyId: string, now: number, staleBefore: number): MaybePromise<void>;
  /** The key with this id, revoked or not (the admin CLI's `keys revoke`). */
  findById(keyId: string): MaybePromise<ApiKey | undefined>;
  /** Every account's active keys, newest first (the admin CLI's `keys list`); a disabled account's too. */
  listAllActive(): MaybePromise<ApiKey[]>;
  /**
   * The hashes of the account's active keys, for an account just disabled: passed to
   * `KeyRevocations.onRevoked`, every process drops them from its cache and asks this store again, which
   * no longer finds them. The keys stay active (enabling the account brings them back). A backend whose
   * signal reads a log of revocations (SQLite) logs them here, as `revoke` does.
   */
  forgetAccountKeys(userId: string, now: number): MaybePromise<string[]>;
  /** Deletes up to `batch` keys revoked longer ago than the retention (and the backend's own bookkeeping); returns how many went. */
  sweep(now: number, batch: number): MaybePromise<number>;
  /** How many keys are not revoked, over every account (the metrics' gauge). */
  countActive(): MaybePromise<number>;
}

/**
 * How a revocation reaches every process that caches keys (keys/active-keys.ts): `onRevoked` is called
 * once the revoke committed, `takeRevoked` before every cached read, so it must cost no more than a
 * memory read when nothing happened. A backend may have no signal at all (PostgreSQL alone): then
 * `onRevoked` does nothing, `takeRevoked` always answers an empty list, and the key cache's trust of
 * under a second is what refuses a revoked key on the other processes in time.
 */
export interface KeyRevocations {
  /** Tells every process, this one included, that the key with this hash is revoked. */
  onRevoked(keyHash: string): MaybePromise<void>;
  /** The hashes of keys revoked since the last call (none: an empty list), or "all" when some may have been missed. */
  takeRevoked(): readonly string[] | "all";
}

/**
 * A revocation-log entry that names no key but means "drop every cached key" (an account's deletion: its
 * keys' hashes are not kept anywhere, not even in the log). No key hash looks like it.
 */
export const ALL_KEYS = "*";

/** Revoked keys are kept this long (a second revoke is still a clean 404 either way), then swept. */
export const REVOKED_KEY_RETENTION_MS = 7 * 24 * 3600 * 1000;
