import { bigint, index, integer, pgTable, text } from "drizzle-orm/pg-core";

/** Secrets generated on first start (the trial-token signer), shared by every instance on the database. */
export const secrets = pgTable("secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/** Bot-challenge solutions already redeemed, kept until the challenge itself expires: each is accepted once. */
export const usedChallenges = pgTable(
  "used_challenges",
  {
    id: text("id").primaryKey(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("used_challenges_expiry_idx").on(t.expiresAt)],
);

/** Requests made with each trial token, counted atomically against its lifetime quota. */
export const trialUsage = pgTable(
  "trial_usage",
  {
    jti: text("jti").primaryKey(),
    used: integer("used").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("trial_usage_expiry_idx").on(t.expiresAt)],
);
