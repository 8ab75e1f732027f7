import { and, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { rateCounters as rateCountersTable } from "./tables";
import { grantable, type Grant, type LimitStore } from "./store";

const rateCounters = rateCountersTable.postgres;

/**
 * The second key of the two-key advisory locks that serialise grants per bucket (the first is the
 * bucket's hash). Its own key space: no other lock of foodapi's uses two keys with this one.
 */
const GRANT_LOCK_SPACE = 0x7261_7465; // "rate"

/** Rate-limit counters in PostgreSQL, so that every instance sharing the database agrees. */
export function createPostgresLimitStore(db: BunSQLDatabase): LimitStore {
  const giveBack = (tx: Pick<BunSQLDatabase, "update">, bucket: string, slot: number, n: number) =>
    tx
      .update(rateCounters)
      .set({ count: sql`greatest(0, ${rateCounters.count} - ${n})` })
      .where(and(eq(rateCounters.bucket, bucket), eq(rateCounters.slot, slot)));

  return {
    // Check and count in one transaction that holds the bucket's advisory lock: grants of one bucket, from
    // any instance, take turns, and each reads the counts the one before committed (READ COMMITTED takes a
    // fresh snapshot per statement, after the lock). Other buckets are not held up.
    grant: (bucket, limit, slot, slots, slotMs, wanted, unused = null, allOrNothing = false): Promise<Grant> =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${GRANT_LOCK_SPACE}, hashtext(${bucket}))`);
        if (unused && unused.n > 0) await giveBack(tx, bucket, unused.slot, unused.n);
        const firstSlot = slot - slots;
        await tx.delete(rateCounters).where(and(eq(rateCounters.bucket, bucket), lt(rateCounters.slot, firstSlot)));
        const [before] = await tx
          .select({
            used: sql<number>`coalesce(sum(${rateCounters.count}), 0)`.mapWith(Number),
            // A slot whose requests were all given back holds none: it does not make the window older.
            oldest: sql<number | null>`min(${rateCounters.slot}) FILTER (WHERE ${rateCounters.count} > 0)`.mapWith(Number),
          })
          .from(rateCounters)
          .where(and(eq(rateCounters.bucket, bucket), gte(rateCounters.slot, firstSlot)));
        const used = before!.used;
        const oldest = before!.oldest ?? null;
        const granted = grantable(wanted, limit - used, allOrNothing);
        if (granted > 0) {
          // The slot counts while it is among the `slots + 1` newest: until the end of slot + slots.
          await tx
            .insert(rateCounters)
            .values({ bucket, slot, count: granted, expiresAt: (slot + slots + 1) * slotMs })
            .onConflictDoUpdate({ target: [rateCounters.bucket, rateCounters.slot], set: { count: sql`${rateCounters.count} + excluded.count` } });
        }
        return { granted, used: used + granted, oldestSlot: granted > 0 ? Math.min(oldest ?? slot, slot) : oldest };
      }),

    // One statement, atomic by itself: the row lock orders it with any grant's update of the same slot.
    async release(bucket, slot, n) {
      await giveBack(db, bucket, slot, n);
    },

    async forget(buckets) {
      if (buckets.length > 0) await db.delete(rateCounters).where(inArray(rateCounters.bucket, [...buckets]));
    },

    async sweep(now, batch) {
      // The batch by ctid: rate_counters' key has two columns, and DELETE has no LIMIT.
      const due = db.select({ ctid: sql`ctid` }).from(rateCounters).where(lte(rateCounters.expiresAt, now)).limit(batch);
      return (await db.delete(rateCounters).where(inArray(sql`ctid`, due)).returning({ slot: rateCounters.slot })).length;
    },
  };
}
