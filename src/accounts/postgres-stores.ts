import { count, eq, inArray, lte, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { sessions, users } from "./postgres-schema";
import type { AccountStore, SessionStore } from "./store";

export function createPostgresAccountStore(db: BunSQLDatabase): AccountStore {
  const byEmail = db.select().from(users).where(eq(users.email, sql.placeholder("email"))).prepare("users_by_email");
  return {
    findByEmail: async (email) => (await byEmail.execute({ email }))[0],
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
  };
}

export function createPostgresSessionStore(db: BunSQLDatabase): SessionStore {
  const byTokenHash = db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare("sessions_by_token_hash");
  return {
    async insert(session) {
      await db.insert(sessions).values(session);
    },

    findByTokenHash: async (tokenHash) => (await byTokenHash.execute({ tokenHash }))[0],

    async extend(id, expiresAt, now) {
      await db.update(sessions).set({ expiresAt, updatedAt: now }).where(eq(sessions.id, id));
    },

    async delete(id) {
      await db.delete(sessions).where(eq(sessions.id, id));
    },

    // PostgreSQL's DELETE has no LIMIT: the batch is chosen by a subquery.
    async sweepExpired(now, batch) {
      const due = db.select({ id: sessions.id }).from(sessions).where(lte(sessions.expiresAt, now)).limit(batch);
      return (await db.delete(sessions).where(inArray(sessions.id, due)).returning({ id: sessions.id })).length;
    },
  };
}
