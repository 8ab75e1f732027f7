import { isNotNull } from "drizzle-orm";
import { integer as sqliteInteger, sqliteTable, text as sqliteText } from "drizzle-orm/sqlite-core";
import { users } from "../accounts/tables";
import { bigint, sqliteOnly, table, text } from "../platform/storage/declare-table";
import type { SameShape } from "../platform/storage/same-shape";
import type { ApiKey } from "./store";

/**
 * The rows of `ApiKey` (keys/store.ts). In PostgreSQL the table also has `seq`, an identity set on insert:
 * the stand-in for SQLite's rowid, ordering keys issued in the same millisecond. It stays out of the rows
 * (read as raw SQL by keys/postgres-store.ts) so that a row is exactly an `ApiKey`.
 */
export const apiKeys = table(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users, "id"),
    name: text("name").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    tier: text("tier").notNull().$type<ApiKey["tier"]>(),
    createdAt: bigint("created_at").notNull(),
    lastUsedAt: bigint("last_used_at"),
    revokedAt: bigint("revoked_at"),
  },
  {
    indexes: {
      api_keys_user_idx: { on: ["userId", "createdAt"] },
      // Housekeeping sweeps revoked keys by age.
      api_keys_revoked_idx: { on: ["revokedAt"], where: (t) => isNotNull(t.revokedAt) },
    },
    postgresOnly: (pg) => ({ seq: pg.bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity() }),
  },
);

true satisfies SameShape<typeof apiKeys.sqlite.$inferSelect, ApiKey>;
true satisfies SameShape<typeof apiKeys.postgres.$inferSelect, ApiKey>;

/**
 * SQLite only: revocations in order, so that every process on the data directory can drop exactly the
 * revoked keys from its cache (the revocation epoch only says that something changed). Kept an hour, then
 * swept. PostgreSQL instances need no log (keys/postgres-store.ts).
 */
export const keyRevocations = sqliteOnly(() =>
  sqliteTable("key_revocations", {
    seq: sqliteInteger("seq").primaryKey({ autoIncrement: true }),
    keyHash: sqliteText("key_hash").notNull(),
    revokedAt: sqliteInteger("revoked_at").notNull(),
  }),
);
