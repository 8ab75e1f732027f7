import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A sliding-window log: one row per admitted request, per bucket (`auth:sign-in:<ip>`, `key:<id>`...).
 * Counting the rows inside the window is exact: no window of the configured length ever holds more than
 * the limit. Rows older than the window are deleted as the bucket is used.
 */
export const rateHits = sqliteTable(
  "rate_hits",
  {
    bucket: text("bucket").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("rate_hits_bucket_at_idx").on(t.bucket, t.at)],
);
