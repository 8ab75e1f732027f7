import { and, count, desc, eq, getTableColumns, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { users as usersTable } from "../accounts/tables";
import { apiKeys as apiKeysTable } from "./tables";
import { type ApiKey, type KeyRefusal, type KeyRevocations, type KeyStore, REVOKED_KEY_RETENTION_MS } from "./store";

const users = usersTable.postgres;
const apiKeys = apiKeysTable.postgres;

const NO_NEWS: readonly string[] = [];

export function createPostgresKeyStore(db: BunSQLDatabase): KeyStore {
  // The queries of an API request, built once.
  // A disabled account's keys are not found.
  const activeByHash = db
    .select(getTableColumns(apiKeys))
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder("keyHash")), isNull(apiKeys.revokedAt), isNull(users.disabledAt)))
    .prepare("api_keys_active_by_hash");
  const touchIfStale = db
    .update(apiKeys)
    .set({ lastUsedAt: sql`${sql.placeholder("now")}` })
    .where(
      and(
        eq(apiKeys.id, sql.placeholder("id")),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql.placeholder("staleBefore"))),
      ),
    )
    .prepare("api_keys_touch");

  return {
    // The account's row is locked for the count and the insert: parallel issues for one account, from any
    // instance, take turns, so they cannot pass the limit together (a count alone would not stop two
    // transactions that both read "2 of 3"). An account deleted meanwhile (its deletion locks the same row
    // first) is not found here, rather than failing the insert's foreign key.
    insertWithinLimit: (key, maxActive) =>
      db.transaction(async (tx): Promise<ApiKey | KeyRefusal> => {
        const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, key.userId)).for("update");
        if (!owner) return "ACCOUNT_NOT_FOUND";
        const [{ n }] = (await tx
          .select({ n: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.userId, key.userId), isNull(apiKeys.revokedAt)))) as [{ n: number }];
        if (n >= maxActive) return "KEY_LIMIT_REACHED";
        const [inserted] = await tx.insert(apiKeys).values(key).returning();
        return inserted!;
      }),

    findActiveByHash: async (keyHash) => (await activeByHash.execute({ keyHash }))[0],

    listActive: async (userId) =>
      await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        // Insertion order breaks ties: two keys issued in the same millisecond still list newest first.
        .orderBy(desc(apiKeys.createdAt), sql`${apiKeys}.seq DESC`),

    // One statement: of parallel revokes, the later ones wait for the first's row lock, then find the key
    // revoked and return nothing.
    async revoke(userId, keyId, now) {
      // The id comes from the request path. PostgreSQL's text cannot hold a NUL and refuses the statement
      // (22021), which would be a 500: an id with one is no key's, the same undefined (a 404) as SQLite's.
      if (keyId.includes("\u0000")) return undefined;
      const [revoked] = await db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning();
      return revoked;
    },

    async rename(userId, keyId, name) {
      // As for revoke: an id with a NUL is no key's (PostgreSQL's text cannot hold one).
      if (keyId.includes("\u0000")) return undefined;
      const [renamed] = await db
        .update(apiKeys)
        .set({ name })
        .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning();
      return renamed;
    },

    findById: async (keyId) => (keyId.includes("\u0000") ? undefined : (await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)))[0]),

    listAllActive: async () => await db.select().from(apiKeys).where(isNull(apiKeys.revokedAt)).orderBy(desc(apiKeys.createdAt), sql`${apiKeys}.seq DESC`),

    // No log to write: the signal (Redis, or none) carries the hashes themselves.
    forgetAccountKeys: async (userId) =>
      (await db.select({ keyHash: apiKeys.keyHash }).from(apiKeys).where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))).map((key) => key.keyHash),

    async touch(keyId, now, staleBefore) {
      await touchIfStale.execute({ id: keyId, now, staleBefore });
    },

    async sweep(now, batch) {
      const oldKeys = db.select({ id: apiKeys.id }).from(apiKeys).where(lte(apiKeys.revokedAt, now - REVOKED_KEY_RETENTION_MS)).limit(batch);
      return (await db.delete(apiKeys).where(inArray(apiKeys.id, oldKeys)).returning({ id: apiKeys.id })).length;
    },
    countActive: async () => (await db.select({ n: count() }).from(apiKeys).where(isNull(apiKeys.revokedAt)))[0]!.n,
  };
}

/**
 * Revocations with PostgreSQL alone: no signal between instances, and none is needed for the contract's
 * rule. The key cache (keys/active-keys.ts) trusts a cached key for less than a second and the revoke
 * itself has committed before it answers, so every instance refuses a revoked key within one second
 * (design §11) without hearing of it. This instance drops the key from its own cache at once
 * (ActiveKeys.revoke). Where Redis is configured, its pub/sub makes the refusal immediate everywhere.
 */
export function createPostgresKeyRevocations(): KeyRevocations {
  return {
    onRevoked: () => {},
    takeRevoked: () => NO_NEWS,
  };
}
