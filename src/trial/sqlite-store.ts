import { eq, getTableName, inArray, lte, sql } from "drizzle-orm";
import type { StateDb } from "../platform/storage/state-db";
import { secrets as secretsTable, trialUsage as trialUsageTable, usedChallenges as usedChallengesTable } from "./tables";
import { TRIAL_EXPIRY_MARGIN_MS, type TrialStore } from "./store";

// The secret is read at every start, in SQL of its own named from the table's declaration (the one table a
// start builds); the others are built at their first query (platform/storage/declare-table.ts).
const secrets = secretsTable.sqlite;
const SELECT_SECRET = `SELECT "${secrets.value.name}" AS value FROM "${getTableName(secrets)}" WHERE "${secrets.name.name}" = ?1`;
const INSERT_SECRET = `INSERT INTO "${getTableName(secrets)}" ("${secrets.name.name}", "${secrets.value.name}") VALUES (?1, ?2) ON CONFLICT DO NOTHING`;

export function createSqliteTrialStore(state: StateDb): TrialStore {
  // drizzle's database (`state.db`) is made by the first challenge or trial request, not by the start.
  const { sqlite } = state;
  return {
    secret(name, generate) {
      // Plain SQL: every start reads a secret before it answers, and building a process's first drizzle
      // query costs milliseconds.
      const stored = () => sqlite.query<{ value: string }, [string]>(SELECT_SECRET).get(name)?.value;
      const found = stored();
      if (found !== undefined) return found;
      // Two first starts may both get here: the first insert wins, and both return what it wrote.
      sqlite.query(INSERT_SECRET).run(name, generate());
      return stored()!;
    },

    markChallengeUsed(id, expiresAt) {
      const usedChallenges = usedChallengesTable.sqlite;
      const inserted = state.db.insert(usedChallenges).values({ id, expiresAt }).onConflictDoNothing().returning().all();
      return inserted.length > 0;
    },

    consumeTrialRequest(jti, quota, expiresAt, n = 1) {
      if (n > quota) return null;
      const trialUsage = trialUsageTable.sqlite;
      // One statement: the row's current count is checked and raised in the same step.
      const row = state.db
        .insert(trialUsage)
        .values({ jti, used: n, expiresAt })
        .onConflictDoUpdate({ target: trialUsage.jti, set: { used: sql`${trialUsage.used} + ${n}` }, setWhere: lte(sql`${trialUsage.used} + ${n}`, quota) })
        .returning({ used: trialUsage.used })
        .get();
      return row?.used ?? null;
    },

    trialRequestsUsed(jti) {
      const trialUsage = trialUsageTable.sqlite;
      return state.db.select({ used: trialUsage.used }).from(trialUsage).where(eq(trialUsage.jti, jti)).get()?.used ?? 0;
    },

    sweepExpired(now, batch) {
      const cutoff = now - TRIAL_EXPIRY_MARGIN_MS;
      const trialUsage = trialUsageTable.sqlite;
      const usedChallenges = usedChallengesTable.sqlite;
      const usage = state.db.select({ jti: trialUsage.jti }).from(trialUsage).where(lte(trialUsage.expiresAt, cutoff)).limit(batch);
      const challenges = state.db.select({ id: usedChallenges.id }).from(usedChallenges).where(lte(usedChallenges.expiresAt, cutoff)).limit(batch);
      return (
        state.db.delete(trialUsage).where(inArray(trialUsage.jti, usage)).returning({ jti: trialUsage.jti }).all().length +
        state.db.delete(usedChallenges).where(inArray(usedChallenges.id, challenges)).returning({ id: usedChallenges.id }).all().length
      );
    },
  };
}
