import { eq } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { newId } from "../security/tokens";
import { users, type User } from "./schema";

/** Every read and write of accounts. */
export type AccountStore = ReturnType<typeof createAccountStore>;

export function createAccountStore({ db }: StateDb) {
  return {
    findByEmail(email: string): User | undefined {
      return db.select().from(users).where(eq(users.email, email)).get();
    },

    /** Inserts the account, or returns undefined when the e-mail is taken (the UNIQUE constraint decides). */
    insert(input: { email: string; name: string; passwordHash: string | null; now: number }): User | undefined {
      return db
        .insert(users)
        .values({ id: newId("usr"), email: input.email, name: input.name, passwordHash: input.passwordHash, createdAt: input.now, updatedAt: input.now })
        .onConflictDoNothing({ target: users.email })
        .returning()
        .get();
    },
  };
}
