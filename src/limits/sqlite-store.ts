import { and, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";
import { onFirstUse } from "../platform/first-use";
import type { StateDb } from "../platform/storage/state-db";
import { rateCounters as rateCountersTable } from "./tables";
import { grantable, type Grant, type LimitStore } from "./store";

/** Rate-limit counters in the state database, so that the processes sharing it agree. */
export function createSqliteLimitStore({ db, sqlite }: StateDb): LimitStore {
  const rateCounters = rateCountersTable.sqlite;
  // Prepared once, at the first use (a start answers sooner): building drizzle queries per request cost ten
  // times more than running them.
  const windowUse = onFirstUse(() =>
    db
      .select({ used: sql<number>`coalesce(sum(${rateCounters.count}), 0)`, oldest: sql<number | null>`min(CASE WHEN ${rateCounters.count} > 0 THEN ${rateCounters.slot} END)` })
      .from(rateCounters)
      .where(and(eq(rateCounters.bucket, sql.placeholder("bucket")), gte(rateCounters.slot, sql.placeholder("firstSlot"))))
      .prepare(),
  );
  const add = onFirstUse(() =>
    db
      .insert(rateCounters)
      .values({ bucket: sql.placeholder("bucket"), slot: sql.placeholder("slot"), count: sql.placeholder("n"), expiresAt: sql.placeholder("expiresAt") })
      .onConflictDoUpdate({ target: [rateCounters.bucket, rateCounters.slot], set: { count: sql`${rateCounters.count} + excluded.count` } })
      .prepare(),
  );
  const giveBack = onFirstUse(() =>
    db
      .update(rateCounters)
      .set({ count: sql`max(0, ${rateCounters.count} - ${sql.placeholder("n")})` })
      .where(and(eq(rateCounters.bucket, sql.placeholder("bucket")), eq(rateCounters.slot, sql.placeholder("slot"))))
      .prepare(),
  );
  const prune = onFirstUse(() =>
    db
      .delete(rateCounters)
      .where(and(eq(rateCounters.bucket, sql.placeholder("bucket")), lt(rateCounters.slot, sql.placeholder("firstSlot"))))
      .prepare(),
  );

  // Check and count in one IMMEDIATE transaction: concurrent grants, in this process or another, are
  // serialised on the write lock, so the counts never overshoot the limit.
  const grant = sqlite.transaction(
    (bucket: string, limit: number, slot: number, slots: number, slotMs: number, wanted: number, unused: { slot: number; n: number } | null, allOrNothing: boolean): Grant => {
      if (unused && unused.n > 0) giveBack().run({ bucket, slot: unused.slot, n: unused.n });
      const firstSlot = slot - slots;
      prune().run({ bucket, firstSlot });
      const before = windowUse().get({ bucket, firstSlot })!;
      const granted = grantable(wanted, limit - before.used, allOrNothing);
      // The slot counts while it is among the `slots + 1` newest: until the end of slot + slots.
      if (granted > 0) add().run({ bucket, slot, n: granted, expiresAt: (slot + slots + 1) * slotMs });
      const oldestSlot = granted > 0 ? Math.min(before.oldest ?? slot, slot) : before.oldest;
      return { granted, used: before.used + granted, oldestSlot };
    },
  );
  const release = sqlite.transaction((bucket: string, slot: number, n: number) => {
    giveBack().run({ bucket, slot, n });
  });
  const expired = onFirstUse(() =>
    db
      .select({ bucket: rateCounters.bucket, slot: rateCounters.slot })
      .from(rateCounters)
      .where(lte(rateCounters.expiresAt, sql.placeholder("now")))
      .limit(sql.placeholder("batch"))
      .prepare(),
  );
  const deleteCounter = onFirstUse(() =>
    db
      .delete(rateCounters)
      .where(and(eq(rateCounters.bucket, sql.placeholder("bucket")), eq(rateCounters.slot, sql.placeholder("slot"))))
      .prepare(),
  );
  const sweep = sqlite.transaction((now: number, batch: number): number => {
    const rows = expired().all({ now, batch });
    for (const row of rows) deleteCounter().run(row);
    return rows.length;
  });

  return {
    grant: (bucket, limit, slot, slots, slotMs, wanted, unused = null, allOrNothing = false) =>
      grant.immediate(bucket, limit, slot, slots, slotMs, wanted, unused, allOrNothing),
    release: (bucket, slot, n) => release.immediate(bucket, slot, n),
    sweep: (now, batch) => sweep.immediate(now, batch),
    forget(buckets) {
      if (buckets.length > 0) db.delete(rateCounters).where(inArray(rateCounters.bucket, [...buckets])).run();
    },
  };
}
