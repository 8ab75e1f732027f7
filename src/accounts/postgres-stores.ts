import { and, asc, count, desc, eq, inArray, isNull, lte, ne, notInArray, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { sessions as sessionsTable, users as usersTable } from "./tables";
import type { AccountStore, DeletedAccount, DeleteOwned, SessionStore } from "./store";

const sessions = sessionsTable.postgres;
const users = usersTable.postgres;

/** Text PostgreSQL cannot hold: an id from a request with a NUL is nobody's (as keys/postgres-store.ts has it). */
const impossible = (id: string) => id.includes("\u0000");

/** The account as the caller verified it: its id and, when given, the password hash it still has. */
const verified = (userId: string, whilePasswordHash: string | undefined) =>
  and(eq(users.id, userId), whilePasswordHash === undefined ? undefined : eq(users.passwordHash, whilePasswordHash));

/** A transaction of `db`, as the account store's deletion hands it to `deleteOwned`. */
export type PostgresTx = Parameters<Parameters<BunSQLDatabase["transaction"]>[0]>[0];

/** `deleteOwned` deletes the account's keys in its deletion's transaction (postgres-state.ts). */
export function createPostgresAccountStore(db: BunSQLDatabase, deleteOwned: DeleteOwned<PostgresTx, Promise<DeletedAccount["keys"]>>): AccountStore {
  const byEmail = db.select().from(users).where(eq(users.email, sql.placeholder("email"))).prepare("users_by_email");
  return {
    findByEmail: async (email) => (await byEmail.execute({ email }))[0],
    findById: async (userId) => (await db.select().from(users).where(eq(users.id, userId)))[0],
    // One transaction, so the account and its first session are both written or neither. Of two sign-ups of
    // one e-mail, the second's insert waits on the first's unique index entry and, once that commits, does
    // nothing.
    insert: (user, firstSession) =>
      db.transaction(async (tx) => {
        const [inserted] = await tx.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning();
        if (inserted && firstSession) await tx.insert(sessions).values(firstSession);
        return inserted;
      }),
    count: async () => (await db.select({ n: count() }).from(users))[0]!.n,

    async rename(userId, name, now) {
      const [renamed] = await db.update(users).set({ name, updatedAt: now }).where(eq(users.id, userId)).returning();
      return renamed;
    },

    // The UPDATE locks the account's row until the sessions are gone: a sign-in storing a session under the
    // old hash (which locks the same row, createPostgresSessionStore) either finishes before, and its session
    // is ended here, or finds the new hash after, and stores nothing. An UPDATE that waited on another
    // change re-evaluates its WHERE on the row that change left (READ COMMITTED), so `whilePasswordHash`
    // is checked against the newest hash, not the one of this statement's snapshot.
    changePassword: (userId, passwordHash, now, { whilePasswordHash, endSessions } = {}) =>
      db.transaction(async (tx) => {
        const [user] = await tx.update(users).set({ passwordHash, updatedAt: now }).where(verified(userId, whilePasswordHash)).returning();
        if (!user) return undefined;
        if (!endSessions) return { user, sessionsEnded: 0 };
        const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
        if (endSessions.replaceWith) await tx.insert(sessions).values(endSessions.replaceWith);
        return { user, sessionsEnded: ended.length };
      }),

    // The account's row is locked first: a key being issued for it (which locks the same row,
    // keys/postgres-store.ts) finishes before, or finds no account after. A password change that held the
    // row is waited for and the WHERE checked again on the row it left, so a stale `whilePasswordHash`
    // deletes nothing. Deleting the keys cascades to their usage; a usage flush racing this waits on the
    // keys' rows or skips them (usage/postgres-store.ts).
    delete: (userId, now, bounds) =>
      db.transaction(async (tx) => {
        const [found] = await tx.select({ id: users.id }).from(users).where(verified(userId, bounds?.whilePasswordHash)).for("update");
        if (!found) return undefined;
        const keys = await deleteOwned(tx, userId, now);
        await tx.delete(sessions).where(eq(sessions.userId, userId));
        await tx.delete(users).where(eq(users.id, userId));
        return { keys };
      }),
    // The hidden order of equal creation times is the primary key's: stable, if not insertion order.
    list: async () => await db.select().from(users).orderBy(asc(users.createdAt), asc(users.id)),
    setDisabled: async (userId, disabled, now) =>
      (
        await db
          .update(users)
          .set({ disabledAt: disabled ? sql`coalesce(${users.disabledAt}, ${now}::bigint)` : null, updatedAt: now })
          .where(eq(users.id, userId))
          .returning()
      )[0],
  };
}

/**
 * Deadlocks among session rows, and why there are none: a statement deleting several sessions locks them one
 * by one, in whatever order its plan meets them, so two such statements over the same rows may each hold
 * one the other wants (PostgreSQL then aborts one with 40P01, which is no storage fault: a 500). Every
 * multi-row deletion of one account's sessions (insert's trimming, changePassword, the account's deletion,
 * deleteOthersOfUser) first locks the account's row, so those of one account take turns and never hold
 * session rows while waiting for each other. sweepExpired, the one deletion across accounts, skips locked
 * rows, so it never waits and cannot close a cycle. The rest (extend, delete, deleteOfUser) touch one row,
 * holding nothing while they wait for it. Ordering the deletions instead would not do: the trimming's
 * order is its plan's.
 */
export function createPostgresSessionStore(db: BunSQLDatabase): SessionStore {
  const byTokenHash = db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare("sessions_by_token_hash");
  return {
    // The account's row is locked first, FOR NO KEY UPDATE, and its conditions read from the row as locked:
    // a password change's or a disabling's UPDATE and a deletion wait for this transaction (and then end the
    // session it stored), or this waits for them and, under READ COMMITTED, re-reads the row they left, which
    // no longer matches. Two sign-ins of one account take turns, so the trimming keeps the bound exactly.
    insert: (session, { whilePasswordHash, maxPerAccount }) =>
      db.transaction(async (tx) => {
        const [owner] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, session.userId), eq(users.passwordHash, whilePasswordHash), isNull(users.disabledAt)))
          .for("no key update");
        if (!owner) return false;
        await tx.insert(sessions).values(session);
        const others = and(eq(sessions.userId, session.userId), ne(sessions.id, session.id));
        const kept = tx.select({ id: sessions.id }).from(sessions).where(others).orderBy(desc(sessions.createdAt), desc(sessions.id)).limit(maxPerAccount - 1);
        await tx.delete(sessions).where(and(others, notInArray(sessions.id, kept)));
        return true;
      }),

    findByTokenHash: async (tokenHash) => (await byTokenHash.execute({ tokenHash }))[0],

    async extend(id, expiresAt, now) {
      await db.update(sessions).set({ expiresAt, updatedAt: now }).where(eq(sessions.id, id));
    },

    async delete(id) {
      await db.delete(sessions).where(eq(sessions.id, id));
    },

    // No insertion order to break ties with: of two sessions of one millisecond, the order is the ids'.
    listOfUser: async (userId) =>
      await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.createdAt), desc(sessions.id)),

    async deleteOfUser(userId, id) {
      if (impossible(id)) return false;
      return (await db.delete(sessions).where(and(eq(sessions.id, id), eq(sessions.userId, userId))).returning({ id: sessions.id })).length > 0;
    },

    // The account's row first, as insert's trimming, a password change and a deletion lock it (see below).
    deleteOthersOfUser: (userId, keepId) =>
      db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
        return (await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId))).returning({ id: sessions.id })).length;
      }),

    // PostgreSQL's DELETE has no LIMIT: the batch is chosen by a subquery, which skips rows another
    // transaction holds (a sign-in trimming, an account's deletion): the sweep never waits on a row lock,
    // and those rows are deleted by their holder or by the next sweep.
    async sweepExpired(now, batch) {
      const due = db.select({ id: sessions.id }).from(sessions).where(lte(sessions.expiresAt, now)).limit(batch).for("update", { skipLocked: true });
      return (await db.delete(sessions).where(inArray(sessions.id, due)).returning({ id: sessions.id })).length;
    },
  };
}
