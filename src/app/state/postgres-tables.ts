import * as accounts from "../../accounts/tables";
import * as keys from "../../keys/tables";
import * as limits from "../../limits/tables";
import * as storage from "../../platform/storage/tables";
import * as trial from "../../trial/tables";
import * as usage from "../../usage/tables";

/**
 * Every table of the PostgreSQL state, as sqlite-tables.ts is for SQLite: what drizzle-kit generates
 * migrations/postgres/ from (drizzle-postgres.config.ts), with the columns the rows leave out (`postgresSchema`).
 * The SQLite-only revocation log is not here; `foodapi_schema` is the migration runner's own (postgres-state.ts).
 */
export const users = accounts.users.postgresSchema;
export const sessions = accounts.sessions.postgresSchema;
export const apiKeys = keys.apiKeys.postgresSchema;
export const rateCounters = limits.rateCounters.postgresSchema;
export const secrets = trial.secrets.postgresSchema;
export const usedChallenges = trial.usedChallenges.postgresSchema;
export const trialUsage = trial.trialUsage.postgresSchema;
export const keyUsage = usage.keyUsage.postgresSchema;
export const storageProbe = storage.storageProbe.postgresSchema;
