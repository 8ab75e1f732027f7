import { bigint, boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import type { SameShape } from "../platform/storage/same-shape";
import type { Session, User } from "./store";

/**
 * The rows of `User` and `Session` (accounts/store.ts) in PostgreSQL. Times stay epoch milliseconds, as
 * in SQLite and the contract: `bigint` read back as a JavaScript number (exact until the year 287396).
 */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  /** argon2id PHC string; null for an account created by `foodapi keys create` that has no password yet. */
  passwordHash: text("password_hash"),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  /** Set by `foodapi users disable`, cleared by `users enable`. */
  disabledAt: bigint("disabled_at", { mode: "number" }),
});

true satisfies SameShape<typeof users.$inferSelect, User>;

/** Sessions: the cookie carries a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    /** false for `rememberMe: false`: the cookie then lives only as long as the browser session. */
    persistent: boolean("persistent").notNull(),
    /** Recorded at sign-in and sign-up, for the account's session list; null for sessions from before. */
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expiry_idx").on(t.expiresAt)],
);

true satisfies SameShape<typeof sessions.$inferSelect, Session>;
