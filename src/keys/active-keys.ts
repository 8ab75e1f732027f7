import type { Clock } from "../platform/clock";
import { ENTRY_OVERHEAD_BYTES, LruCache, stringBytes } from "../platform/lru";
import { InFlight } from "../platform/in-flight";
import { isPromise, type MaybePromise, then } from "../platform/maybe-promise";
import type { ApiKey, KeyRevocations, KeyStore } from "./store";

/** Active keys remembered per process (by hash), bounded in bytes. */
const KEY_CACHE_BYTES = 4 * 1024 * 1024;
/** A cached key record beyond its strings (ids, hash, prefix, name): the row object and its numbers. */
const KEY_RECORD_BYTES = 128;
/**
 * How long a cached key is trusted without asking the store. Revocations arrive as signals and take
 * effect at once; this bounds what a missed signal can cost to the one second within which the contract
 * wants a revoked key refused by every instance (design §11).
 */
export const KEY_CACHE_TTL_MS = 1000;
/**
 * A key in use is asked of the store again in the background once its cached answer is this old, and served
 * from the cache meanwhile: a busy key's requests never wait for the store (with PostgreSQL, a round trip
 * each for every request in flight when the answer expired), and the bound above still holds, since a
 * refreshed answer counts from when it was asked for.
 */
export const KEY_REFRESH_AFTER_MS = (KEY_CACHE_TTL_MS * 3) / 4;
/**
 * When a revoked key (or a deleted account's) stops working, in the documentation's words. The signal
 * reaches every process on one data directory (SQLite) and, through Redis, every instance; PostgreSQL
 * alone carries none, so there only the process that answered drops the key at once and the others
 * within the cache's bound.
 */
export const KEYS_REFUSED = `from the next request on every process that shares the SQLite data directory, and on every instance with Redis (\`--redis-url\`); with PostgreSQL and no Redis, at once on the process that answered and within ${KEY_CACHE_TTL_MS / 1000} s on the others`;
const RECENTLY_TOUCHED_MAX = 100_000;

/**
 * The keys of the data routes' hot path: found by hash through a per-process cache that follows
 * revocations, and their use recorded coarsely. Revoking goes through here so that the revocation is
 * announced to every process.
 */
export interface ActiveKeys {
  find(keyHash: string): MaybePromise<ApiKey | undefined>;
  /** Records use: at most one store write per key per `coarseMs` from this process. */
  touch(keyId: string, now: number, coarseMs: number): MaybePromise<void>;
  /** The store's revoke, then every process drops the key; false when there was no such key of the account. */
  revoke(userId: string, keyId: string, now: number): MaybePromise<boolean>;
  /** Keys deleted from the store (with their account): every process drops them, as for a revocation. */
  dropDeleted(keyHashes: readonly string[]): MaybePromise<void>;
  /** For an account just disabled: every process drops its keys and asks the store, which refuses them. How many. */
  forgetAccount(userId: string, now: number): Promise<number>;
}

export function createActiveKeys(deps: { store: KeyStore; revocations: KeyRevocations; clock: Clock }): ActiveKeys {
  const { store, revocations, clock } = deps;
  const cache = new LruCache<string, { key: ApiKey; cachedAt: number }>(KEY_CACHE_BYTES);
  // When this process last wrote each key's lastUsedAt.
  const recentlyTouched = new Map<string, number>();
  // The store's answer for a key on its way (a store over the network): the key's other requests share it.
  const asking = new InFlight<string, ApiKey | undefined>();
  // Counts the times this process dropped keys from its cache: an answer asked for before a drop is not
  // cached after it, or a key revoked while the store was answering could be trusted again.
  let drops = 0;

  const ask = (keyHash: string, now: number): MaybePromise<ApiKey | undefined> => {
    const pending = asking.get(keyHash);
    if (pending) return pending;
    const dropsBefore = drops;
    const answer = then(store.findActiveByHash(keyHash), (key) => {
      // Only found keys are remembered: an unknown hash may belong to a key issued a moment later.
      if (!key) cache.delete(keyHash);
      else if (drops === dropsBefore) {
        const strings = keyHash + key.id + key.userId + key.name + key.keyPrefix + key.keyHash;
        cache.set(keyHash, { key, cachedAt: now }, stringBytes(strings) + KEY_RECORD_BYTES + ENTRY_OVERHEAD_BYTES);
      }
      return key;
    });
    return isPromise(answer) ? asking.track(keyHash, answer) : answer;
  };

  const dropDeleted = (keyHashes: readonly string[]): MaybePromise<void> => {
    drops++;
    for (const keyHash of keyHashes) cache.delete(keyHash);
    const told = keyHashes.map((keyHash) => revocations.onRevoked(keyHash)).filter(isPromise);
    if (told.length > 0) return Promise.all(told).then(() => {});
  };

  return {
    find(keyHash) {
      const news = revocations.takeRevoked();
      if (news === "all") {
        drops++;
        cache.clear();
      } else if (news.length > 0) {
        drops++;
        for (const revoked of news) cache.delete(revoked);
      }
      const cached = cache.get(keyHash);
      const now = clock();
      if (!cached || now - cached.cachedAt >= KEY_CACHE_TTL_MS) return ask(keyHash, now);
      if (now - cached.cachedAt >= KEY_REFRESH_AFTER_MS && !asking.has(keyHash)) {
        const refreshed = ask(keyHash, now);
        // A store that fails now fails the request that finds the answer expired, not this one.
        if (isPromise(refreshed)) refreshed.catch(() => {});
      }
      return cached.key;
    },

    touch(keyId, now, coarseMs) {
      const last = recentlyTouched.get(keyId);
      if (last !== undefined && now - last < coarseMs) return;
      if (recentlyTouched.size >= RECENTLY_TOUCHED_MAX) recentlyTouched.clear();
      recentlyTouched.set(keyId, now);
      return store.touch(keyId, now, now - coarseMs);
    },

    revoke(userId, keyId, now) {
      return then(store.revoke(userId, keyId, now), (revoked) => {
        if (!revoked) return false;
        // After the commit and before the caller answers: every process drops that key.
        drops++;
        cache.delete(revoked.keyHash);
        return then(revocations.onRevoked(revoked.keyHash), () => true);
      });
    },

    dropDeleted,

    async forgetAccount(userId, now) {
      // Still active, but no longer found (the account is disabled): dropped everywhere as deleted ones are.
      const hashes = await store.forgetAccountKeys(userId, now);
      await dropDeleted(hashes);
      return hashes.length;
    },
  };
}
