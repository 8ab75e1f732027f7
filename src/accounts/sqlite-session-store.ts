import { and, desc, eq, inArray, isNull, lte, ne, notInArray, sql } from "drizzle-orm";
import type { StateDb } from "../platform/storage/state-db";
import { sessions as sessionsTable, users as usersTable } from "./tables";
import type { Session, SessionBounds, SessionStore } from "./store";

export function createSqliteSessionStore({ db, sqlite }: StateDb): SessionStore {
  const sessions = sessionsTable.sqlite;
  const users = usersTable.sqlite;
  // IMMEDIATE: the check, the insert and the trimming hold the write lock together, so a password change,
  // a disabling or a deletion (each one write transaction) commits wholly before them or wholly after.
  const insert = sqlite.transaction((session: Session, { whilePasswordHash, maxPerAccount }: SessionBounds): boolean => {
    const owner = db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, session.userId), eq(users.passwordHash, whilePasswordHash), isNull(users.disabledAt)))
      .get();
    if (!owner) return false;
    db.insert(sessions).values(session).run();
    const others = and(eq(sessions.userId, session.userId), ne(sessions.id, session.id));
    const kept = db.select({ id: sessions.id }).from(sessions).where(others).orderBy(desc(sessions.createdAt), sql`${sessions}.rowid DESC`).limit(maxPerAccount - 1);
    db.delete(sessions).where(and(others, notInArray(sessions.id, kept))).run();
    return true;
  });

  return {
    insert: (session, bounds) => insert.immediate(session, bounds),

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
