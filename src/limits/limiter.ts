import type { Clock } from "../platform/clock";
import type { RateSpec } from "../platform/config/config";
import { InFlight } from "../platform/in-flight";
import { isPromise, type MaybePromise, then } from "../platform/maybe-promise";
import type { Grant, LimitStore } from "./store";

/**
 * The one rate limiter. Every limit in the service (sign-in and sign-up per IP, trial routes per IP,
 * free-tier keys, wrong passwords per account) is a named policy consumed here; the result carries what
 * the RateLimit and Retry-After headers need.
 *
 * Counting each request with its own database commit would cost more than serving it, so a process takes
 * a *lease*: a few requests counted at once in the current slot, served from memory until used up. A
 * lease is only spent in the slot it was counted in, and what is left of it is given back afterwards, so
 * the counts never fall below what was served: no window ever admits more than the limit, across every
 * process sharing the state database. A busy key's lease doubles each time it runs out; leases of more
 * than one are only taken far from the limit and live a fraction of a second, so a light user's count,
 * and any count near its limit, is exact.
 *
 * A refusal of a limit that large is kept as a lease of nothing: a client past its quota that keeps asking
 * would otherwise cost a store round trip per request (a commit, or a call to Redis or PostgreSQL from every
 * instance), more than any request it is allowed. While that lease lives (the rest of the slot, at most a
 * lease's lifetime) the process refuses what does not fit in what the store last said was left. Quota comes free as slots
 * leave the window, or as another process gives back a lease it did not use, within that lifetime: a
 * remembered refusal is as old, at worst, as what a lease already assumes. Small limits (wrong passwords,
 * sign-ins per client IP) are asked of the store every time, so that an operator's reset in another process
 * counts at once.
 *
 * With a store over the network (Redis, PostgreSQL) a grant takes a round trip, and every request that
 * waits for one is answered later, from the store's callback rather than its own (docs/performance.md says
 * what that costs). So a busy key's lease is topped up before it runs out: once half of its last grant is
 * spent, the next is asked for in the background and added to it in the same slot. And a lease of more than
 * one is asked for once per bucket at a time: the requests that find it spent while it is on its way wait
 * for it rather than each asking for a lease of their own, which the store would count in full although
 * one lease replaces the other.
 */
export interface LimitResult {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly windowSeconds: number;
  /** Seconds until the oldest counted requests leave the window and free quota (the header's `t`). */
  readonly resetSeconds: number;
  /** Seconds until the next request would be allowed (for Retry-After); 0 when allowed. */
  readonly retryAfterSeconds: number;
  /** The slot the request was counted in, when allowed (for `giveBack`). */
  readonly slot: number;
}

export interface Limiter {
  /**
   * From the process's lease when it has one (synchronously), else after a grant by the store. A `cost`
   * above one (a batch lookup) is all or nothing: with fewer units left than that, nothing is counted.
   */
  consume(bucket: string, spec: RateSpec, cost?: number): MaybePromise<LimitResult>;
  /**
   * Forgets leases whose slot or lifetime has passed, giving back their unused part (every lease with
   * `all`). Returns how many leases this process still holds.
   */
  releaseLeases(options?: { all?: boolean }): number;
  /** Forgets these buckets: this process's leases of them and their counters in the store (limits/store.ts). */
  forget(buckets: readonly string[]): MaybePromise<void>;
  /**
   * Uncounts one request that `consume` allowed (`counted` is its result) and that turned out not to
   * count: a limit on failures counts each attempt before it runs, so that parallel attempts cannot
   * overrun it, and gives back the ones that succeeded.
   */
  giveBack(bucket: string, counted: LimitResult): MaybePromise<void>;
}

const MAX_LEASE = 1024;
/** Leases of more than one request are taken only while at least this much quota is left; refusals of smaller limits are not remembered. */
export const LEASE_HEADROOM = 64;
/** A lease is spent within this time or what is left of it goes back. */
export const LEASE_TTL_MS = 200;
/** A busy lease's next grant is asked for once this share of its last grant is spent (refillAhead). */
export const REFILL_AT_SPENT = 0.5;

interface Lease {
  slot: number;
  grantedAt: number;
  slotMs: number;
  /** 0: a refusal, kept (limits of LEASE_HEADROOM or more) to refuse again what does not fit. */
  granted: number;
  served: number;
  /** Requests counted in the window (by every process) when the lease was granted. */
  usedAtGrant: number;
  oldestSlot: number | null;
  /** The size of its last grant: the next is asked for once REFILL_AT_SPENT of it is spent (refillAhead). */
  lastGrant: number;
}

/** Slots per window: one per second for short windows, sixty for long ones (a minute each for an hour). */
export function slotsFor(spec: RateSpec): number {
  return Math.min(60, spec.windowSeconds);
}

/** How often leases past their slot or lifetime are given back. */
const RELEASE_INTERVAL_MS = 250;

export function createLimiter(store: LimitStore, clock: Clock): Limiter {
  const leases = new Map<string, Lease>();
  // A grant of more than one request per bucket on its way from the store; settles once it is applied.
  const granting = new InFlight<string, void>();
  // Runs only while some lease holds unused requests, so an idle process (or a closed test app) has none.
  let releaseTimer: ReturnType<typeof setInterval> | undefined;
  const expired = (lease: Lease, now: number) => Math.floor(now / lease.slotMs) !== lease.slot || now - lease.grantedAt >= LEASE_TTL_MS;

  const result = (spec: RateSpec, lease: Pick<Lease, "usedAtGrant" | "granted" | "served" | "oldestSlot" | "slotMs">, allowed: boolean, now: number): LimitResult => {
    const slots = slotsFor(spec);
    // The oldest counted slot stops counting once it is more than `slots` slots old.
    const untilFree = lease.oldestSlot === null ? 0 : Math.max(1, Math.ceil(((lease.oldestSlot + slots + 1) * lease.slotMs - now) / 1000));
    return {
      allowed,
      limit: spec.limit,
      remaining: Math.max(0, spec.limit - lease.usedAtGrant + (lease.granted - lease.served)),
      windowSeconds: spec.windowSeconds,
      resetSeconds: untilFree,
      retryAfterSeconds: allowed ? 0 : untilFree,
      slot: Math.floor(now / lease.slotMs),
    };
  };

  /** Keeps a grant's lease; one of nothing (a refusal) only for limits of LEASE_HEADROOM or more. */
  const keep = (bucket: string, spec: RateSpec, lease: Lease) => {
    if (lease.granted > 0 || spec.limit >= LEASE_HEADROOM) leases.set(bucket, lease);
    else leases.delete(bucket);
  };

  /**
   * Several units at once: served from the lease when it holds them all, else granted whole by the store,
   * which takes back the lease's unused part in the same step (so it is there to fit the cost).
   */
  const consumeMany = (bucket: string, spec: RateSpec, cost: number, now: number, slot: number, slots: number, slotMs: number, lease: Lease | undefined): MaybePromise<LimitResult> => {
    if (lease && !expired(lease, now) && lease.granted - lease.served >= cost) {
      lease.served += cost;
      return result(spec, lease, true, now);
    }
    const unused = lease && lease.served < lease.granted ? { slot: lease.slot, n: lease.granted - lease.served } : null;
    return then(store.grant(bucket, spec.limit, slot, slots, slotMs, cost, unused, true), (grant: Grant) => {
      // Whatever happened, the lease's unused part went back with this grant: what is kept is spent, or a refusal.
      const next: Lease = { slot, grantedAt: now, slotMs, granted: grant.granted, served: grant.granted, usedAtGrant: grant.used, oldestSlot: grant.oldestSlot, lastGrant: grant.granted };
      if (grant.granted > 0) leases.delete(bucket);
      else keep(bucket, spec, next);
      return result(spec, next, grant.granted > 0, now);
    });
  };

  const holdLeases = () => {
    releaseTimer ??= setInterval(() => limiter.releaseLeases(), RELEASE_INTERVAL_MS).unref();
  };

  /** How many to ask for after `lease`: twice its last grant while it is fresh and plenty of quota is left for others, else one. */
  const nextGrantSize = (spec: RateSpec, lease: Lease | undefined, now: number): number => {
    const left = spec.limit - (lease?.usedAtGrant ?? 0);
    return lease && lease.granted > 0 && !expired(lease, now) && left >= LEASE_HEADROOM ? Math.min(lease.lastGrant * 2, MAX_LEASE, Math.floor(left / 8)) : 1;
  };

  /**
   * A busy lease with REFILL_AT_SPENT of its last grant spent: its next grant, asked for now and added to it
   * when it comes, so that its requests never wait for the store. Should the lease be gone by then (spent
   * some other way, expired, forgotten) or the slot have changed, the grant's requests go back at once.
   */
  const refillAhead = (bucket: string, spec: RateSpec, lease: Lease, now: number) => {
    if (lease.lastGrant < 2 || lease.granted - lease.served > lease.lastGrant * (1 - REFILL_AT_SPENT) || granting.has(bucket)) return;
    const wanted = nextGrantSize(spec, lease, now);
    if (wanted < 2) return;
    const add = (grant: Grant) => {
      if (grant.granted === 0) return;
      const at = clock();
      if (leases.get(bucket) === lease && !expired(lease, at)) {
        lease.granted += grant.granted;
        lease.lastGrant = grant.granted;
        lease.usedAtGrant = grant.used;
        lease.oldestSlot = grant.oldestSlot;
        lease.grantedAt = at;
        holdLeases();
      } else {
        const released = store.release(bucket, lease.slot, grant.granted);
        if (isPromise(released)) released.catch(() => {});
      }
    };
    share(bucket, store.grant(bucket, spec.limit, lease.slot, slotsFor(spec), lease.slotMs, wanted, null), add);
  };

  /** A grant of more than one on its way: the bucket's other requests wait for it (`granting`) rather than ask for their own. */
  const share = <T>(bucket: string, grant: MaybePromise<Grant>, apply: (grant: Grant) => T): MaybePromise<T> => {
    if (!isPromise(grant)) return apply(grant);
    const applied = grant.then(apply);
    // The waiters ask again once it has come, whether it came or failed: they share its arrival, not its result.
    granting.track(
      bucket,
      applied.then(
        () => {},
        () => {},
      ),
    );
    return applied;
  };

  const limiter: Limiter = {
    consume(bucket, spec, cost = 1) {
      const now = clock();
      const slots = slotsFor(spec);
      const slotMs = (spec.windowSeconds * 1000) / slots;
      const slot = Math.floor(now / slotMs);
      const lease = leases.get(bucket);
      // A refusal kept: refused again, unless the request fits in what the store said was left.
      if (lease && lease.granted === 0 && !expired(lease, now) && cost > spec.limit - lease.usedAtGrant) return result(spec, lease, false, now);
      if (cost > 1) return consumeMany(bucket, spec, cost, now, slot, slots, slotMs, lease);
      if (lease && !expired(lease, now) && lease.served < lease.granted) {
        lease.served++;
        refillAhead(bucket, spec, lease, now);
        return result(spec, lease, true, now);
      }
      // A lease on its way: this request is served from it, or asks again once it has come.
      const coming = granting.get(bucket);
      if (coming) return coming.then(() => limiter.consume(bucket, spec, cost));
      const unused = lease && lease.served < lease.granted ? { slot: lease.slot, n: lease.granted - lease.served } : null;
      const wanted = nextGrantSize(spec, lease, now);
      const grant = store.grant(bucket, spec.limit, slot, slots, slotMs, wanted, unused);
      const apply = (grant: Grant) => {
        const next: Lease = {
          slot, grantedAt: now, slotMs, granted: grant.granted, served: grant.granted > 0 ? 1 : 0, usedAtGrant: grant.used, oldestSlot: grant.oldestSlot, lastGrant: grant.granted,
        };
        // Grants of one request each are not shared (a light key's parallel requests, or one near its
        // limit, stay exact) and may overlap another grant: the later lease replaces the earlier, whose
        // unused part, if any, then stays counted. That errs on the safe side (counted, not served).
        keep(bucket, spec, next);
        if (grant.granted > 1) holdLeases();
        return result(spec, next, grant.granted > 0, now);
      };
      return wanted > 1 ? share(bucket, grant, apply) : then(grant, apply);
    },

    forget(buckets) {
      for (const bucket of buckets) leases.delete(bucket);
      return store.forget(buckets);
    },

    giveBack(bucket, counted) {
      if (!counted.allowed) return;
      // The unit is free again: a refusal kept since must not outlive it.
      if (leases.get(bucket)?.granted === 0) leases.delete(bucket);
      // Straight to the store, whether the request came from a lease or not: a lease's units are counted
      // there when granted, and only its unused part goes back later, so the count stays what was served.
      return store.release(bucket, counted.slot, 1);
    },

    releaseLeases(options = {}) {
      const now = clock();
      let holding = false;
      try {
        for (const [bucket, lease] of leases) {
          if (!options.all && !expired(lease, now)) {
            holding ||= lease.served < lease.granted;
            continue;
          }
          leases.delete(bucket);
          if (lease.served < lease.granted) {
            const released = store.release(bucket, lease.slot, lease.granted - lease.served);
            // A store that is gone keeps what it counted: safe, and nothing to retry.
            if (isPromise(released)) released.catch(() => {});
          }
        }
      } catch {
        // The database is gone (shut down): nothing left to give back to.
        leases.clear();
        holding = false;
      }
      if (!holding && releaseTimer) {
        clearInterval(releaseTimer);
        releaseTimer = undefined;
      }
      return leases.size;
    },
  };
  return limiter;
}
