import { and, desc, eq, inArray, lte, ne, sql } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { sessions, users } from "./sqlite-schema";
import type { SessionStore } from "./store";

export function createSqliteSessionStore({ db }: StateDb): SessionStore {
  return {
    insert(session) {
      db.insert(sessions).values(session).run();
    },

    findByTokenHash(tokenHash) {
      return db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.tokenHash, tokenHash))
        .get();
    },

    extend(id, expiresAt, now) {
      db.update(sessions).set({ expiresAt, updatedAt: now }).where(eq(sessions.id, id)).run();
    },

    delete(id) {
      db.delete(sessions).where(eq(sessions.id, id)).run();
    },

    // Insertion order breaks ties: of two sessions started in the same millisecond, the later first.
    listOfUser: (userId) =>
      db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.createdAt), sql`${sessions}.rowid DESC`).all(),

    deleteOfUser: (userId, id) =>
      db.delete(sessions).where(and(eq(sessions.id, id), eq(sessions.userId, userId))).returning({ id: sessions.id }).all().length > 0,

    deleteOthersOfUser: (userId, keepId) =>
      db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepId))).returning({ id: sessions.id }).all().length,

    sweepExpired(now, batch) {
      const due = db.select({ id: sessions.id }).from(sessions).where(lte(sessions.expiresAt, now)).limit(batch);
      return db.delete(sessions).where(inArray(sessions.id, due)).returning({ id: sessions.id }).all().length;
    },
  };
}
