import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Accounts, shaped like Better Auth's `user` so its client reads them unchanged. Times are epoch ms. */
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
});

export type User = typeof users.$inferSelect;
