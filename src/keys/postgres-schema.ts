import { isNotNull } from "drizzle-orm";
import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "../accounts/postgres-schema";
import type { SameShape } from "../platform/storage/same-shape";
import type { ApiKey } from "./store";

/**
 * The rows of `ApiKey` (keys/store.ts). The table also has a hidden `seq` column (an identity, set by
 * PostgreSQL on insert; platform/storage/postgres-migrations.ts), PostgreSQL's stand-in for SQLite's rowid: it orders
 * keys issued in the same millisecond, and stays out of this declaration so that a row is exactly an
 * `ApiKey`.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    tier: text("tier", { enum: ["free"] }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastUsedAt: bigint("last_used_at", { mode: "number" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (t) => [index("api_keys_user_idx").on(t.userId, t.createdAt), index("api_keys_revoked_idx").on(t.revokedAt).where(isNotNull(t.revokedAt))],
);

true satisfies SameShape<typeof apiKeys.$inferSelect, ApiKey>;
