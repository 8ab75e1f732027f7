import { count, eq } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { sessions, users } from "./sqlite-schema";
import type { AccountStore, Session, User } from "./store";

export function createSqliteAccountStore({ db, sqlite }: StateDb): AccountStore {
  // IMMEDIATE: the write lock is taken at the start, so two sign-ups of one e-mail in two processes queue
  // instead of one failing on a lock upgrade; the UNIQUE constraint then keeps the first.
  const insert = sqlite.transaction((user: User, firstSession: Session | undefined): User | undefined => {
    const inserted = db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning().get();
    if (inserted && firstSession) db.insert(sessions).values(firstSession).run();
    return inserted;
  });
  return {
    findByEmail: (email) => db.select().from(users).where(eq(users.email, email)).get(),
    insert: (user, firstSession) => insert.immediate(user, firstSession),
    count: () => db.select({ n: count() }).from(users).get()!.n,
  };
}
