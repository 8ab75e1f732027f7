import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { SameShape } from "../platform/storage/same-shape";
import { apiKeys } from "../keys/sqlite-schema";
import type { UsageDelta } from "./store";

/** The rows of `UsageDelta` (usage/store.ts): one per key and hour with requests; they go with their key. */
export const keyUsage = sqliteTable(
  "key_usage",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    hour: integer("hour").notNull(),
    allowed: integer("allowed").notNull(),
    refused: integer("refused").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.hour] }), index("key_usage_hour_idx").on(t.hour)],
);

true satisfies SameShape<typeof keyUsage.$inferSelect, UsageDelta>;
