import { eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { secrets, trialUsage, usedChallenges } from "./schema";

/** Every read and write of trial state: the signer secret, redeemed challenges, per-token usage. */
export type TrialStore = ReturnType<typeof createTrialStore>;

export function createTrialStore({ db }: StateDb) {
  return {
    /** The named secret, created with `generate()` if absent; concurrent first starts agree on one value. */
    secret(name: string, generate: () => string): string {
      db.insert(secrets).values({ name, value: generate() }).onConflictDoNothing().run();
      return db.select({ value: secrets.value }).from(secrets).where(eq(secrets.name, name)).get()!.value;
    },

    /** Records a redeemed challenge; false when it was redeemed before (a replay). */
    markChallengeUsed(id: string, expiresAt: number): boolean {
      const inserted = db.insert(usedChallenges).values({ id, expiresAt }).onConflictDoNothing().returning().all();
      return inserted.length > 0;
    },

    /**
     * Counts one request against a token's lifetime quota in a single statement, so concurrent requests
     * (from any process) can never push it past `quota`. Returns the count after this request, or null
     * when the quota was already used up.
     */
    consumeTrialRequest(jti: string, quota: number, expiresAt: number): number | null {
      const row = db
        .insert(trialUsage)
        .values({ jti, used: 1, expiresAt })
        .onConflictDoUpdate({ target: trialUsage.jti, set: { used: sql`${trialUsage.used} + 1` }, setWhere: lt(trialUsage.used, quota) })
        .returning({ used: trialUsage.used })
        .get();
      return row?.used ?? null;
    },

    /**
     * Forgets up to `batch` each of expired tokens' usage (they fail the signature check's expiry anyway)
     * and of redeemed challenges past their own expiry (a replay of one fails its expiry check). Returns
     * how many rows went.
     */
    sweepExpired(now: number, batch: number): number {
      const usage = db.select({ jti: trialUsage.jti }).from(trialUsage).where(lte(trialUsage.expiresAt, now)).limit(batch);
      const challenges = db.select({ id: usedChallenges.id }).from(usedChallenges).where(lte(usedChallenges.expiresAt, now)).limit(batch);
      return (
        db.delete(trialUsage).where(inArray(trialUsage.jti, usage)).returning({ jti: trialUsage.jti }).all().length +
        db.delete(usedChallenges).where(inArray(usedChallenges.id, challenges)).returning({ id: usedChallenges.id }).all().length
      );
    },
  };
}
