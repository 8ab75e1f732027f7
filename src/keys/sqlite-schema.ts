import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../accounts/sqlite-schema";
import type { SameShape } from "../platform/storage/same-shape";
import type { ApiKey } from "./store";

/** The rows of `ApiKey` (keys/store.ts). */
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

true satisfies SameShape<typeof apiKeys.$inferSelect, ApiKey>;

/**
 * Revocations in order, so that every process on the data directory can drop exactly the revoked keys
 * from its cache (the revocation epoch only says that something changed). Kept an hour, then swept.
 */
export const keyRevocations = sqliteTable("key_revocations", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  keyHash: text("key_hash").notNull(),
  revokedAt: integer("revoked_at").notNull(),
});
