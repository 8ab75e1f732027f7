import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { SameShape } from "../platform/storage/same-shape";
import type { Session, User } from "./store";

/** The rows of `User` and `Session` (accounts/store.ts) in the SQLite state database. */
export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
  image: text("image"),
  /** argon2id PHC string; null for an account created by `foodapi keys create` that has no password yet. */
  passwordHash: text("password_hash"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
  /** Set by `foodapi users disable`, cleared by `users enable`. */
  disabledAt: integer("disabled_at"),
});

true satisfies SameShape<typeof users.$inferSelect, User>;

/** Sessions: the cookie carries a random token; only its SHA-256 is stored. Times are epoch ms. */
export const sessions = sqliteTable("sessions", {
  id: text("id").primaryKey(),
  tokenHash: text("token_hash").notNull().unique(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: integer("expires_at").notNull(),
  /** false for `rememberMe: false`: the cookie then lives only as long as the browser session. */
  persistent: integer("persistent", { mode: "boolean" }).notNull(),
  /** Recorded at sign-in and sign-up, for the account's session list; null for sessions from before. */
  ipAddress: text("ip_address"),
  userAgent: text("user_agent"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

true satisfies SameShape<typeof sessions.$inferSelect, Session>;
