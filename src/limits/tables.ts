import { bigint, integer, table, text } from "../platform/storage/declare-table";

/**
 * Sliding windows as counters in slots: a window of W seconds is split into k slots (k = min(60, W)), and
 * each admitted request adds one to the count of the slot it falls in. A request is admitted when the
 * k + 1 newest slots, which cover the whole window and a little more, hold fewer than the limit: so no
 * window of W seconds ever holds more than the limit (at worst a slot's worth of conservatism), in
 * constant space per key. Slot numbers are epoch milliseconds divided by the slot length.
 */
export const rateCounters = table(
  "rate_counters",
  {
    bucket: text("bucket").notNull(),
    slot: bigint("slot").notNull(),
    count: integer("count").notNull(),
    /** When the slot stops counting for any window (epoch ms): the housekeeping job deletes it then. */
    expiresAt: bigint("expires_at").notNull(),
  },
  { primaryKey: ["bucket", "slot"], indexes: { rate_counters_expiry_idx: { on: ["expiresAt"] } } },
);
