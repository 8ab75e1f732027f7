import { and, count, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { openRevocationEpoch } from "./revocation-epoch";
import { ENTRY_OVERHEAD_BYTES, LruCache, stringBytes } from "../lru";
import { apiKeys, type ApiKey, keyRevocations } from "./schema";

/** Active keys remembered per process (by hash), bounded in bytes; a revocation anywhere drops just that key. */
const KEY_CACHE_BYTES = 4 * 1024 * 1024;
/** A cached key record beyond its strings (ids, hash, prefix, name): the row object and its numbers. */
const KEY_RECORD_BYTES = 128;
/** Revoked keys are kept this long (a second revoke is still a clean 404 either way), then swept. */
export const REVOKED_KEY_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** The revocation log only has to outlive the time between two requests of a process. */
const REVOCATION_LOG_RETENTION_MS = 3600 * 1000;
const RECENTLY_TOUCHED_MAX = 100_000;

/** Every read and write of API key records. Keys are found by the hash of the presented key only. */
export type KeyStore = ReturnType<typeof createKeyStore>;

export function createKeyStore({ db, sqlite, dataDir }: StateDb) {
  const epoch = openRevocationEpoch(dataDir);
  const cache = new LruCache<string, ApiKey>(KEY_CACHE_BYTES);
  // When this process last wrote each key's lastUsedAt.
  const recentlyTouched = new Map<string, number>();
  // The two queries on every API request are prepared once (building a drizzle query costs more than
  // running it).
  const activeByHash = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder("keyHash")), isNull(apiKeys.revokedAt)))
    .prepare();
  const touchIfStale = db
    .update(apiKeys)
    .set({ lastUsedAt: sql`${sql.placeholder("now")}` })
    .where(
      and(
        eq(apiKeys.id, sql.placeholder("id")),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql.placeholder("staleBefore"))),
      ),
    )
    .prepare();
  const revocationsAfter = db
    .select({ seq: keyRevocations.seq, keyHash: keyRevocations.keyHash })
    .from(keyRevocations)
    .where(gt(keyRevocations.seq, sql.placeholder("seq")))
    .orderBy(keyRevocations.seq)
    .prepare();
  const latestRevocation = () => sqlite.query<{ seq: number | null }, []>("SELECT max(seq) AS seq FROM key_revocations").get()?.seq ?? 0;

  // What this process has applied of the revocation log. When the epoch moves, the log entries after
  // `appliedSeq` name the keys to drop; a gap (entries swept while this process was idle) drops them all.
  let seenEpoch = epoch.current();
  let appliedSeq = latestRevocation();
  const applyRevocations = () => {
    const now = epoch.current();
    if (now === seenEpoch) return;
    seenEpoch = now;
    const entries = revocationsAfter.all({ seq: appliedSeq });
    if (entries.length === 0 || entries[0]!.seq !== appliedSeq + 1) {
      cache.clear();
      appliedSeq = Math.max(appliedSeq, latestRevocation());
      return;
    }
    for (const entry of entries) cache.delete(entry.keyHash);
    appliedSeq = entries.at(-1)!.seq;
  };

  const revoke = sqlite.transaction((userId: string, keyId: string, now: number): boolean => {
    const revoked = db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ keyHash: apiKeys.keyHash })
      .all();
    for (const { keyHash } of revoked) db.insert(keyRevocations).values({ keyHash, revokedAt: now }).run();
    return revoked.length > 0;
  });

  return {
    /** Inserts the key unless the user already has `maxActive` active keys (checked under the write lock). */
    insertWithinLimit(record: typeof apiKeys.$inferInsert, maxActive: number): ApiKey | undefined {
      return db.transaction(
        (tx) => {
          const active = tx
            .select({ n: count() })
            .from(apiKeys)
            .where(and(eq(apiKeys.userId, record.userId), isNull(apiKeys.revokedAt)))
            .get()!.n;
          if (active >= maxActive) return undefined;
          return tx.insert(apiKeys).values(record).returning().get();
        },
        { behavior: "immediate" },
      );
    },

    findActiveByHash(keyHash: string): ApiKey | undefined {
      applyRevocations();
      const cached = cache.get(keyHash);
      if (cached) return cached;
      const key = activeByHash.get({ keyHash });
      // Only found keys are remembered: an unknown hash may belong to a key issued a moment later.
      if (key) {
        const strings = keyHash + key.id + key.userId + key.name + key.keyPrefix + key.keyHash;
        cache.set(keyHash, key, stringBytes(strings) + KEY_RECORD_BYTES + ENTRY_OVERHEAD_BYTES);
      }
      return key;
    },

    listActive(userId: string): ApiKey[] {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        // Insertion order breaks ties: two keys issued in the same millisecond still list newest first.
        .orderBy(desc(apiKeys.createdAt), sql`${apiKeys}.rowid DESC`)
        .all();
    },

    /** Revokes the user's own active key; false when there is none such (not theirs, unknown, revoked). */
    revoke(userId: string, keyId: string, now: number): boolean {
      const revoked = revoke.immediate(userId, keyId, now);
      // After the commit and before the caller answers: every process drops that key from its cache.
      if (revoked) epoch.bump();
      return revoked;
    },

    /** Deletes up to `batch` each of keys revoked longer ago than the retention and of old log entries. */
    sweep(now: number, batch: number): number {
      const oldKeys = db.select({ id: apiKeys.id }).from(apiKeys).where(lte(apiKeys.revokedAt, now - REVOKED_KEY_RETENTION_MS)).limit(batch);
      const oldLog = db.select({ seq: keyRevocations.seq }).from(keyRevocations).where(lte(keyRevocations.revokedAt, now - REVOCATION_LOG_RETENTION_MS)).limit(batch);
      return (
        db.delete(apiKeys).where(inArray(apiKeys.id, oldKeys)).returning({ id: apiKeys.id }).all().length +
        db.delete(keyRevocations).where(inArray(keyRevocations.seq, oldLog)).returning({ seq: keyRevocations.seq }).all().length
      );
    },

    /**
     * Records use of a key, coarsely: at most one write per key per `coarseMs` from this process, and the
     * row only changes when its `lastUsedAt` is older than that.
     */
    touch(keyId: string, now: number, coarseMs: number): void {
      const last = recentlyTouched.get(keyId);
      if (last !== undefined && now - last < coarseMs) return;
      if (recentlyTouched.size >= RECENTLY_TOUCHED_MAX) recentlyTouched.clear();
      recentlyTouched.set(keyId, now);
      touchIfStale.run({ id: keyId, now, staleBefore: now - coarseMs });
    },
  };
}
