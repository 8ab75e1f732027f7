import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../accounts/schema";

/** API keys: only the SHA-256 of the whole key is kept; the plaintext exists once, in the issue response. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    tier: text("tier", { enum: ["free"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId, t.createdAt)],
);

export type ApiKey = typeof apiKeys.$inferSelect;

/**
 * Revocations in order, so that every process can drop exactly the revoked keys from its cache (the
 * revocation epoch only says that something changed). Kept an hour, then swept.
 */
export const keyRevocations = sqliteTable("key_revocations", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  keyHash: text("key_hash").notNull(),
  revokedAt: integer("revoked_at").notNull(),
});
