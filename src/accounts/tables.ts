import { bigint, boolean, table, text } from "../platform/storage/declare-table";
import type { SameShape } from "../platform/storage/same-shape";
import type { Session, User } from "./store";

/** The rows of `User` and `Session` (accounts/store.ts). Times are epoch milliseconds. */
export const users = table("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  /** argon2id PHC string; null for an account created by `foodapi keys create` that has no password yet. */
  passwordHash: text("password_hash"),
  createdAt: bigint("created_at").notNull(),
  updatedAt: bigint("updated_at").notNull(),
  /** Set by `foodapi users disable`, cleared by `users enable`. */
  disabledAt: bigint("disabled_at"),
});

true satisfies SameShape<typeof users.sqlite.$inferSelect, User>;
true satisfies SameShape<typeof users.postgres.$inferSelect, User>;

/** Sessions: the cookie carries a random token; only its SHA-256 is stored. */
export const sessions = table(
  "sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users, "id", { onDelete: "cascade" }),
    expiresAt: bigint("expires_at").notNull(),
    /** false for `rememberMe: false`: the cookie then lives only as long as the browser session. */
    persistent: boolean("persistent").notNull(),
    createdAt: bigint("created_at").notNull(),
    updatedAt: bigint("updated_at").notNull(),
    /** Recorded at sign-in and sign-up, for the account's session list; null for sessions from before. */
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
  },
  { indexes: { sessions_user_idx: { on: ["userId"] }, sessions_expiry_idx: { on: ["expiresAt"] } } },
);

true satisfies SameShape<typeof sessions.sqlite.$inferSelect, Session>;
true satisfies SameShape<typeof sessions.postgres.$inferSelect, Session>;
