import { apiKeys } from "../keys/tables";
import { bigint, integer, table, text } from "../platform/storage/declare-table";
import type { SameShape } from "../platform/storage/same-shape";
import type { UsageDelta } from "./store";

/** The rows of `UsageDelta` (usage/store.ts): one per key and hour with requests; they go with their key. */
export const keyUsage = table(
  "key_usage",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys, "id", { onDelete: "cascade" }),
    hour: bigint("hour").notNull(),
    allowed: integer("allowed").notNull(),
    refused: integer("refused").notNull(),
  },
  { primaryKey: ["keyId", "hour"], indexes: { key_usage_hour_idx: { on: ["hour"] } } },
);

true satisfies SameShape<typeof keyUsage.sqlite.$inferSelect, UsageDelta>;
true satisfies SameShape<typeof keyUsage.postgres.$inferSelect, UsageDelta>;
