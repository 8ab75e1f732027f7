import * as accounts from "../../accounts/tables";
import * as keys from "../../keys/tables";
import * as limits from "../../limits/tables";
import * as storage from "../../platform/storage/tables";
import * as trial from "../../trial/tables";
import * as usage from "../../usage/tables";

/**
 * Every table of the SQLite state, gathered from the capabilities that declare them (src/<capability>/tables.ts):
 * what drizzle-kit generates migrations/sqlite/ from (drizzle-sqlite.config.ts), and what the tests hold a live
 * database to. Each export is one table (drizzle-kit collects a module's exported tables).
 */
export const users = accounts.users.sqlite;
export const sessions = accounts.sessions.sqlite;
export const apiKeys = keys.apiKeys.sqlite;
export const keyRevocations = keys.keyRevocations.sqlite;
export const rateCounters = limits.rateCounters.sqlite;
export const secrets = trial.secrets.sqlite;
export const usedChallenges = trial.usedChallenges.sqlite;
export const trialUsage = trial.trialUsage.sqlite;
export const keyUsage = usage.keyUsage.sqlite;
export const storageProbe = storage.storageProbe.sqlite;
