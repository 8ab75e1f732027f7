import { and, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { openRevocationEpoch } from "./revocation-epoch";
import { apiKeys, type ApiKey } from "./schema";

/** Active keys remembered per process (by hash), valid while no revocation happened anywhere. */
const CACHED_KEYS_MAX = 10_000;
const RECENTLY_TOUCHED_MAX = 100_000;

/** Every read and write of API key records. Keys are found by the hash of the presented key only. */
export type KeyStore = ReturnType<typeof createKeyStore>;

export function createKeyStore({ db, dataDir }: StateDb) {
  const epoch = openRevocationEpoch(dataDir);
  const cache = new Map<string, { key: ApiKey; epoch: number }>();
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
      const now = epoch.current();
      const cached = cache.get(keyHash);
      if (cached && cached.epoch === now) return cached.key;
      const key = activeByHash.get({ keyHash });
      // Only found keys are remembered: an unknown hash may belong to a key issued a moment later.
      if (key) {
        if (cache.size >= CACHED_KEYS_MAX) cache.clear();
        cache.set(keyHash, { key, epoch: now });
      } else {
        cache.delete(keyHash);
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
      const revoked = db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id })
        .all();
      // After the commit and before the caller answers: every process drops its cached keys.
      if (revoked.length > 0) epoch.bump();
      return revoked.length > 0;
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
