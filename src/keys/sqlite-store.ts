import { and, count, desc, eq, getTableColumns, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { users as usersTable } from "../accounts/tables";
import { onFirstUse } from "../platform/first-use";
import type { StateDb } from "../platform/storage/state-db";
import { apiKeys as apiKeysTable, keyRevocations as keyRevocationsTable } from "./tables";
import { type ApiKey, type KeyRefusal, type KeyStore, REVOKED_KEY_RETENTION_MS } from "./store";

/** The revocation log only has to outlive the time between two requests of a process. */
const REVOCATION_LOG_RETENTION_MS = 3600 * 1000;

export function createSqliteKeyStore({ db, sqlite }: StateDb): KeyStore {
  const users = usersTable.sqlite;
  const apiKeys = apiKeysTable.sqlite;
  const keyRevocations = keyRevocationsTable.sqlite;
  // The two queries of an API request are prepared once, at the first request (building a drizzle query
  // costs more than running it; a start answers sooner without building them).
  // A disabled account's keys are not found: the join is on the primary key, one more page at most.
  const activeByHash = onFirstUse(() =>
    db
      .select(getTableColumns(apiKeys))
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder("keyHash")), isNull(apiKeys.revokedAt), isNull(users.disabledAt)))
      .prepare(),
  );
  const touchIfStale = onFirstUse(() =>
    db
      .update(apiKeys)
      .set({ lastUsedAt: sql`${sql.placeholder("now")}` })
      .where(
        and(
          eq(apiKeys.id, sql.placeholder("id")),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql.placeholder("staleBefore"))),
        ),
      )
      .prepare(),
  );

  // The checks and the insert under one write lock: parallel issues cannot pass the limit together, and an
  // account's deletion (one write transaction) comes wholly before or after.
  const insertWithinLimit = sqlite.transaction((key: ApiKey, maxActive: number): ApiKey | KeyRefusal => {
    if (!db.select({ id: users.id }).from(users).where(eq(users.id, key.userId)).get()) return "ACCOUNT_NOT_FOUND";
    const active = db
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, key.userId), isNull(apiKeys.revokedAt)))
      .get()!.n;
    return active >= maxActive ? "KEY_LIMIT_REACHED" : db.insert(apiKeys).values(key).returning().get();
  });
  // The revocation and its log entry commit together: every process that sees the key gone can learn which.
  const revoke = sqlite.transaction((userId: string, keyId: string, now: number) => {
    const revoked = db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning()
      .get();
    if (revoked) db.insert(keyRevocations).values({ keyHash: revoked.keyHash, revokedAt: now }).run();
    return revoked;
  });
  // Logged like revocations, so that each process drops exactly these keys from its cache.
  const forgetAccountKeys = sqlite.transaction((userId: string, now: number) => {
    const hashes = db
      .select({ keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .all()
      .map((key) => key.keyHash);
    if (hashes.length > 0) db.insert(keyRevocations).values(hashes.map((keyHash) => ({ keyHash, revokedAt: now }))).run();
    return hashes;
  });

  return {
    insertWithinLimit: (key, maxActive) => insertWithinLimit.immediate(key, maxActive),
    findActiveByHash: (keyHash) => activeByHash().get({ keyHash }),
    listActive: (userId) =>
      db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        // Insertion order breaks ties: two keys issued in the same millisecond still list newest first.
        .orderBy(desc(apiKeys.createdAt), sql`${apiKeys}.rowid DESC`)
        .all(),
    revoke: (userId, keyId, now) => revoke.immediate(userId, keyId, now),
    rename: (userId, keyId, name) =>
      db
        .update(apiKeys)
        .set({ name })
        .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning()
        .get(),
    findById: (keyId) => db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get(),
    listAllActive: () => db.select().from(apiKeys).where(isNull(apiKeys.revokedAt)).orderBy(desc(apiKeys.createdAt), sql`${apiKeys}.rowid DESC`).all(),
    forgetAccountKeys: (userId, now) => forgetAccountKeys.immediate(userId, now),
    touch(keyId, now, staleBefore) {
      touchIfStale().run({ id: keyId, now, staleBefore });
    },
    sweep(now, batch) {
      const oldKeys = db.select({ id: apiKeys.id }).from(apiKeys).where(lt(apiKeys.revokedAt, now - REVOKED_KEY_RETENTION_MS)).limit(batch);
      const oldLog = db.select({ seq: keyRevocations.seq }).from(keyRevocations).where(lte(keyRevocations.revokedAt, now - REVOCATION_LOG_RETENTION_MS)).limit(batch);
      return (
        db.delete(apiKeys).where(inArray(apiKeys.id, oldKeys)).returning({ id: apiKeys.id }).all().length +
        db.delete(keyRevocations).where(inArray(keyRevocations.seq, oldLog)).returning({ seq: keyRevocations.seq }).all().length
      );
    },
    countActive: () => db.select({ n: count() }).from(apiKeys).where(isNull(apiKeys.revokedAt)).get()!.n,
  };
}
