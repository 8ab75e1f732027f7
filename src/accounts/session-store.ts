import { eq, inArray, lte } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { sessions, users, type Session, type User } from "./schema";

/** Every read and write of sessions. Found by token hash only. */
export type SessionStore = ReturnType<typeof createSessionStore>;

export function createSessionStore({ db }: StateDb) {
  return {
    insert(session: Session): void {
      db.insert(sessions).values(session).run();
    },

    findByTokenHash(tokenHash: string): { session: Session; user: User } | undefined {
      return db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.tokenHash, tokenHash))
        .get();
    },

    extend(id: string, expiresAt: number, now: number): void {
      db.update(sessions).set({ expiresAt, updatedAt: now }).where(eq(sessions.id, id)).run();
    },

    delete(id: string): void {
      db.delete(sessions).where(eq(sessions.id, id)).run();
    },

    /** Deletes up to `batch` expired sessions; returns how many went. */
    sweepExpired(now: number, batch: number): number {
      const due = db.select({ id: sessions.id }).from(sessions).where(lte(sessions.expiresAt, now)).limit(batch);
      return db.delete(sessions).where(inArray(sessions.id, due)).returning({ id: sessions.id }).all().length;
    },
  };
}
