import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Secrets generated on first start (the trial-token signer), shared by every process on the data directory. */
export const secrets = sqliteTable("secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/** Bot-challenge solutions already redeemed, kept until the challenge itself expires: each is accepted once. */
export const usedChallenges = sqliteTable("used_challenges", {
  id: text("id").primaryKey(),
  expiresAt: integer("expires_at").notNull(),
});

/** Requests made with each trial token, counted atomically against its lifetime quota. */
export const trialUsage = sqliteTable("trial_usage", {
  jti: text("jti").primaryKey(),
  used: integer("used").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
