import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { keyUsage as keyUsageTable } from "./tables";
import type { UsageStore } from "./store";

const keyUsage = keyUsageTable.postgres;

/** Deltas per statement: a flush of many keys is a few statements, each of bounded size. */
const ADD_CHUNK = 500;

export function createPostgresUsageStore(db: BunSQLDatabase): UsageStore {
  return {
    // One statement per chunk. The keys are locked FOR KEY SHARE as they are joined: an account deletion
    // that committed meanwhile leaves its keys out (READ COMMITTED re-checks a locked row and skips a
    // deleted one), one that comes later waits for this statement, and its cascade then takes these rows
    // too. Rows are taken in one order (key, hour), so two processes adding the same hours cannot deadlock.
    async add(deltas) {
      for (let start = 0; start < deltas.length; start += ADD_CHUNK) {
        const rows = deltas
          .slice(start, start + ADD_CHUNK)
          .map((d) => sql`(${d.keyId}::text, ${d.hour}::bigint, ${d.allowed}::integer, ${d.refused}::integer)`);
        await db.execute(sql`
          INSERT INTO key_usage (key_id, hour, allowed, refused)
          SELECT k.id, d.hour, d.allowed, d.refused
          FROM (VALUES ${sql.join(rows, sql`, `)}) AS d (key_id, hour, allowed, refused)
          JOIN api_keys k ON k.id = d.key_id
          ORDER BY d.key_id, d.hour
          FOR KEY SHARE OF k
          ON CONFLICT (key_id, hour) DO UPDATE
            SET allowed = key_usage.allowed + excluded.allowed, refused = key_usage.refused + excluded.refused`);
      }
    },
    hours: async (keyId, since) =>
      await db
        .select({ hour: keyUsage.hour, allowed: keyUsage.allowed, refused: keyUsage.refused })
        .from(keyUsage)
        .where(and(eq(keyUsage.keyId, keyId), gte(keyUsage.hour, since)))
        .orderBy(asc(keyUsage.hour)),
    async sweep(before, batch) {
      const removed = await db.execute(sql`
        DELETE FROM key_usage WHERE (key_id, hour) IN (SELECT key_id, hour FROM key_usage WHERE hour < ${before} LIMIT ${batch})
        RETURNING 1`);
      return (removed as unknown as unknown[]).length;
    },
  };
}
