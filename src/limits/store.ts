import { and, asc, count, eq, gt, lte } from "drizzle-orm";
import type { StateDb } from "../db/state-db";
import { rateHits } from "./schema";

/** Every read and write of rate-limit state. In the state database, so processes sharing it agree. */
export type LimitStore = ReturnType<typeof createLimitStore>;

export interface WindowUse {
  /** Requests admitted in the window, including this one when admitted. */
  used: number;
  admitted: boolean;
  /** Time of the oldest request still in the window (ms), or null when the window is empty. */
  oldestAt: number | null;
}

export function createLimitStore({ db, sqlite }: StateDb) {
  // Check and record in one IMMEDIATE transaction: concurrent requests, in this process or another,
  // are serialised on the write lock, so the count never overshoots.
  const consume = sqlite.transaction((bucket: string, limit: number, windowMs: number, now: number): WindowUse => {
    const windowStart = now - windowMs;
    db.delete(rateHits).where(and(eq(rateHits.bucket, bucket), lte(rateHits.at, windowStart))).run();
    const inWindow = and(eq(rateHits.bucket, bucket), gt(rateHits.at, windowStart));
    const used = db.select({ n: count() }).from(rateHits).where(inWindow).get()!.n;
    const admitted = used < limit;
    if (admitted) db.insert(rateHits).values({ bucket, at: now }).run();
    const oldest = db.select({ at: rateHits.at }).from(rateHits).where(inWindow).orderBy(asc(rateHits.at)).limit(1).get();
    return { used: admitted ? used + 1 : used, admitted, oldestAt: oldest?.at ?? null };
  });

  return {
    consume: (bucket: string, limit: number, windowMs: number, now: number) => consume.immediate(bucket, limit, windowMs, now),
  };
}
