import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * The rate limiter's slot counters (see limits/sqlite-schema.ts for the scheme). Slot numbers are epoch
 * milliseconds divided by the slot length, so `bigint` like every time.
 */
export const rateCounters = pgTable(
  "rate_counters",
  {
    bucket: text("bucket").notNull(),
    slot: bigint("slot", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
    /** When the slot stops counting for any window (epoch ms): the housekeeping job deletes it then. */
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.slot] }), index("rate_counters_expiry_idx").on(t.expiresAt)],
);
