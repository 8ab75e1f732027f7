import { and, asc, count, eq, sql } from "drizzle-orm";
import type { StateDb } from "../platform/storage/state-db";
import { sessions as sessionsTable, users as usersTable } from "./tables";
import type { AccountStore, DeletedAccount, DeleteOwned, PasswordChanged, PasswordChangeOptions, Session, User } from "./store";

/** `deleteOwned` runs inside the deletion's transaction, on the same database (sqlite-state.ts). */
export function createSqliteAccountStore({ db, sqlite }: StateDb, deleteOwned: DeleteOwned<StateDb["db"]>): AccountStore {
  const sessions = sessionsTable.sqlite;
  const users = usersTable.sqlite;
  // IMMEDIATE: the write lock is taken at the start, so two sign-ups of one e-mail in two processes queue
  // instead of one failing on a lock upgrade; the UNIQUE constraint then keeps the first.
  const insert = sqlite.transaction((user: User, firstSession: Session | undefined): User | undefined => {
    const inserted = db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning().get();
    if (inserted && firstSession) db.insert(sessions).values(firstSession).run();
    return inserted;
  });
  // The account as the caller verified it: its id and, when given, the password hash it still has.
  const verified = (userId: string, whilePasswordHash: string | undefined) =>
    and(eq(users.id, userId), whilePasswordHash === undefined ? undefined : eq(users.passwordHash, whilePasswordHash));
  const changePassword = sqlite.transaction(
    (userId: string, passwordHash: string, now: number, { whilePasswordHash, endSessions }: PasswordChangeOptions): PasswordChanged | undefined => {
      const user = db.update(users).set({ passwordHash, updatedAt: now }).where(verified(userId, whilePasswordHash)).returning().get();
      if (!user) return undefined;
      if (!endSessions) return { user, sessionsEnded: 0 };
      const ended = db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }).all().length;
      if (endSessions.replaceWith) db.insert(sessions).values(endSessions.replaceWith).run();
      return { user, sessionsEnded: ended };
    },
  );
  const deleteAccount = sqlite.transaction((userId: string, now: number, whilePasswordHash: string | undefined): DeletedAccount | undefined => {
    if (!db.select({ id: users.id }).from(users).where(verified(userId, whilePasswordHash)).get()) return undefined;
    const keys = deleteOwned(db, userId, now);
    db.delete(sessions).where(eq(sessions.userId, userId)).run();
    db.delete(users).where(eq(users.id, userId)).run();
    return { keys };
  });
  return {
    findByEmail: (email) => db.select().from(users).where(eq(users.email, email)).get(),
    findById: (userId) => db.select().from(users).where(eq(users.id, userId)).get(),
    insert: (user, firstSession) => insert.immediate(user, firstSession),
    count: () => db.select({ n: count() }).from(users).get()!.n,
    rename: (userId, name, now) => db.update(users).set({ name, updatedAt: now }).where(eq(users.id, userId)).returning().get(),
    changePassword: (userId, passwordHash, now, options = {}) => changePassword.immediate(userId, passwordHash, now, options),
    delete: (userId, now, bounds) => deleteAccount.immediate(userId, now, bounds?.whilePasswordHash),
    list: () => db.select().from(users).orderBy(asc(users.createdAt), sql`${users}.rowid`).all(),
    setDisabled: (userId, disabled, now) =>
      db
        .update(users)
        .set({ disabledAt: disabled ? sql`coalesce(${users.disabledAt}, ${now})` : null, updatedAt: now })
        .where(eq(users.id, userId))
        .returning()
        .get(),
  };
}
