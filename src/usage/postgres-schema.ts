import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { SameShape } from "../platform/storage/same-shape";
import { apiKeys } from "../keys/postgres-schema";
import type { UsageDelta } from "./store";

/** The rows of `UsageDelta` (usage/store.ts) in PostgreSQL: one per key and hour with requests. */
export const keyUsage = pgTable(
  "key_usage",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    hour: bigint("hour", { mode: "number" }).notNull(),
    allowed: integer("allowed").notNull(),
    refused: integer("refused").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.hour] }), index("key_usage_hour_idx").on(t.hour)],
);

true satisfies SameShape<typeof keyUsage.$inferSelect, UsageDelta>;
