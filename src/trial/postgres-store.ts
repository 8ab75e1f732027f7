import { eq, inArray, lte, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { secrets as secretsTable, trialUsage as trialUsageTable, usedChallenges as usedChallengesTable } from "./tables";
import { TRIAL_EXPIRY_MARGIN_MS, type TrialStore } from "./store";

const secrets = secretsTable.postgres;
const trialUsage = trialUsageTable.postgres;
const usedChallenges = usedChallengesTable.postgres;

export function createPostgresTrialStore(db: BunSQLDatabase): TrialStore {
  // The trial routes' per-request statement, built once. One statement, atomic by itself: the upsert
  // locks the token's row and re-checks `used < quota` against the latest count, so parallel requests
  // from any instance never count past the quota; past it, nothing is returned.
  const consume = db
    .insert(trialUsage)
    .values({ jti: sql.placeholder("jti"), used: sql`${sql.placeholder("n")}::integer`, expiresAt: sql.placeholder("expiresAt") })
    .onConflictDoUpdate({
      target: trialUsage.jti,
      set: { used: sql`${trialUsage.used} + ${sql.placeholder("n")}::integer` },
      setWhere: sql`${trialUsage.used} + ${sql.placeholder("n")}::integer <= ${sql.placeholder("quota")}::integer`,
    })
    .returning({ used: trialUsage.used })
    .prepare("trial_usage_consume");

  return {
    async secret(name, generate) {
      const stored = async () => (await db.select({ value: secrets.value }).from(secrets).where(eq(secrets.name, name)))[0]?.value;
      const found = await stored();
      if (found !== undefined) return found;
      // A racing first start's insert waits for the other's to commit and then does nothing; the read
      // after it sees whichever value won.
      await db.insert(secrets).values({ name, value: generate() }).onConflictDoNothing();
      return (await stored())!;
    },

    markChallengeUsed: async (id, expiresAt) => (await db.insert(usedChallenges).values({ id, expiresAt }).onConflictDoNothing().returning()).length > 0,

    consumeTrialRequest: async (jti, quota, expiresAt, n = 1) => (n > quota ? null : ((await consume.execute({ jti, quota, expiresAt, n }))[0]?.used ?? null)),

    trialRequestsUsed: async (jti) => (await db.select({ used: trialUsage.used }).from(trialUsage).where(eq(trialUsage.jti, jti)))[0]?.used ?? 0,

    async sweepExpired(now, batch) {
      const cutoff = now - TRIAL_EXPIRY_MARGIN_MS;
      const usage = db.select({ jti: trialUsage.jti }).from(trialUsage).where(lte(trialUsage.expiresAt, cutoff)).limit(batch);
      const challenges = db.select({ id: usedChallenges.id }).from(usedChallenges).where(lte(usedChallenges.expiresAt, cutoff)).limit(batch);
      const [sweptUsage, sweptChallenges] = await Promise.all([
        db.delete(trialUsage).where(inArray(trialUsage.jti, usage)).returning({ jti: trialUsage.jti }),
        db.delete(usedChallenges).where(inArray(usedChallenges.id, challenges)).returning({ id: usedChallenges.id }),
      ]);
      return sweptUsage.length + sweptChallenges.length;
    },
  };
}
