import { eq } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { newId } from "../security/tokens";
import { users, type User } from "./schema";

/** Every read and write of accounts. */
export type AccountStore = ReturnType<typeof createAccountStore>;

export function createAccountStore({ db, sqlite }: StateDb) {
  return {
    findByEmail(email: string): User | undefined {
      return db.select().from(users).where(eq(users.email, email)).get();
    },

    /**
     * Inserts the account, or returns undefined when the e-mail is taken (the UNIQUE constraint decides).
     * `andThen` runs in the same transaction (sign-up's first session): both are written, or neither.
     */
    insert(input: { email: string; name: string; passwordHash: string | null; now: number }, andThen?: (user: User) => void): User | undefined {
      return sqlite
        .transaction(() => {
          const user = db
            .insert(users)
            .values({ id: newId("usr"), email: input.email, name: input.name, passwordHash: input.passwordHash, createdAt: input.now, updatedAt: input.now })
            .onConflictDoNothing({ target: users.email })
            .returning()
            .get();
          if (user) andThen?.(user);
          return user;
        })
        .immediate();
    },
  };
}
