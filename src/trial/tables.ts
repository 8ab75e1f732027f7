import { bigint, integer, table, text } from "../platform/storage/declare-table";

/** Secrets generated on first start (the trial-token signer), shared by every process and instance on the state. */
export const secrets = table("secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/** Bot-challenge solutions already redeemed, kept until the challenge itself expires: each is accepted once. */
export const usedChallenges = table(
  "used_challenges",
  {
    id: text("id").primaryKey(),
    expiresAt: bigint("expires_at").notNull(),
  },
  { indexes: { used_challenges_expiry_idx: { on: ["expiresAt"] } } },
);

/** Requests made with each trial token, counted atomically against its lifetime quota. */
export const trialUsage = table(
  "trial_usage",
  {
    jti: text("jti").primaryKey(),
    used: integer("used").notNull(),
    expiresAt: bigint("expires_at").notNull(),
  },
  { indexes: { trial_usage_expiry_idx: { on: ["expiresAt"] } } },
);
