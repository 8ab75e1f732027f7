import { expect } from "bun:test";
import type { StateStores } from "../../src/app/state/state-stores";
import { type Check, type ContractBackend, items, race, registerChecks } from "./backend";
import { T0 } from "./fixtures";

type Stores = "limits";

/**
 * A window of 5 s in slots of a second, as the limiter makes for `n/5s` (limits/limiter.ts): a slot
 * counts while it is among the 6 newest, so until the end of slot + 5. Slot numbers are real ones.
 */
const SLOTS = 5;
const SLOT_MS = 1000;
const S = T0 / SLOT_MS;
/** When no window counts `slot` any more. */
const endOf = (slot: number) => (slot + SLOTS + 1) * SLOT_MS;

const grant = (stores: Pick<StateStores, "limits">, bucket: string, limit: number, slot: number, wanted: number, unused?: { slot: number; n: number } | null) =>
  stores.limits.grant(bucket, limit, slot, SLOTS, SLOT_MS, wanted, unused);

/** How many the window at `slot` holds, learnt as the limiter would: from a grant (of one, which it then counts). */
async function heldBeforeOne(stores: Pick<StateStores, "limits">, bucket: string, slot: number): Promise<number> {
  const g = await grant(stores, bucket, 1000, slot, 1);
  expect(g.granted).toBe(1);
  return g.used - 1;
}

/**
 * 8 handles ask for `wanted` each at once, more than `limit` together, in each of 20 buckets: exactly the
 * limit is granted in every one.
 */
async function parallelGrants(stores: Pick<StateStores, "limits">, handles: Pick<StateStores, "limits">[], limit: number, wanted: number) {
  expect(handles.length * wanted).toBeGreaterThan(limit);
  const buckets = items("hot", 20);
  const grants = await race(handles, buckets, (h, bucket) => grant(h, bucket, limit, S, wanted));
  for (const [n, bucket] of buckets.entries()) {
    expect(grants[n]!.reduce((sum, g) => sum + g.granted, 0)).toBe(limit);
    expect(await grant(stores, bucket, limit, S, 1)).toEqual({ granted: 0, used: limit, oldestSlot: S });
  }
}

export const limitStoreChecks = {
  "under the limit all that is wanted is granted; used and oldestSlot cover the window; buckets are apart": async ({ stores }) => {
    expect(await grant(stores, "a", 10, S, 3)).toEqual({ granted: 3, used: 3, oldestSlot: S });
    expect(await grant(stores, "a", 10, S + 2, 2)).toEqual({ granted: 2, used: 5, oldestSlot: S });
    expect(await grant(stores, "a", 10, S + 2, 1)).toEqual({ granted: 1, used: 6, oldestSlot: S });
    expect(await grant(stores, "b", 10, S + 2, 1)).toEqual({ granted: 1, used: 1, oldestSlot: S + 2 });
  },

  "near the limit part is granted, at the limit nothing, and every handle sees the same counts": async ({ stores, peer }) => {
    expect((await grant(stores, "a", 10, S, 8)).granted).toBe(8);
    expect(await grant(await peer(), "a", 10, S + 1, 5)).toEqual({ granted: 2, used: 10, oldestSlot: S });
    expect(await grant(stores, "a", 10, S + 1, 1)).toEqual({ granted: 0, used: 10, oldestSlot: S });
    expect(await grant(await peer(), "a", 10, S + 5, 3)).toEqual({ granted: 0, used: 10, oldestSlot: S });
  },

  "all or nothing: what is wanted is counted whole, or nothing when it does not fit": async ({ stores, peer }) => {
    const whole = (handle: Pick<StateStores, "limits">, slot: number, wanted: number) => handle.limits.grant("w", 10, slot, SLOTS, SLOT_MS, wanted, null, true);
    expect(await whole(stores, S, 4)).toEqual({ granted: 4, used: 4, oldestSlot: S });
    expect(await whole(await peer(), S + 1, 3)).toEqual({ granted: 3, used: 7, oldestSlot: S });
    // 5 do not fit in the 3 left: nothing counted, and the 3 are still there for others.
    expect(await whole(stores, S + 1, 5)).toEqual({ granted: 0, used: 7, oldestSlot: S });
    expect(await grant(await peer(), "w", 10, S + 1, 1)).toEqual({ granted: 1, used: 8, oldestSlot: S });
    expect(await whole(stores, S + 2, 2)).toEqual({ granted: 2, used: 10, oldestSlot: S });
    // With `unused` given back first, in the same step.
    expect(await stores.limits.grant("w", 10, S + 2, SLOTS, SLOT_MS, 3, { slot: S + 1, n: 3 }, true)).toEqual({ granted: 3, used: 10, oldestSlot: S });
  },

  "parallel all-or-nothing grants never count past the limit": async ({ stores, parallel }) => {
    const buckets = items("whole", 20);
    const grants = await race(await parallel(8), buckets, (h, bucket) => h.limits.grant(bucket, 10, S, SLOTS, SLOT_MS, 3, null, true));
    for (const [n, bucket] of buckets.entries()) {
      expect(grants[n]!.map((g) => g.granted).sort()).toEqual([0, 0, 0, 0, 0, 3, 3, 3]);
      expect(await grant(stores, bucket, 10, S, 1)).toEqual({ granted: 1, used: 10, oldestSlot: S });
    }
  },

  "a slot stops counting once it is more than `slots` slots old": async ({ stores }) => {
    await grant(stores, "a", 10, S, 4);
    await grant(stores, "a", 10, S + 3, 3);
    // Slot S is among the 6 newest at S + 5 ...
    expect(await grant(stores, "a", 10, S + 5, 5)).toEqual({ granted: 3, used: 10, oldestSlot: S });
    // ... and not at S + 6.
    expect(await grant(stores, "a", 10, S + 6, 1)).toEqual({ granted: 1, used: 7, oldestSlot: S + 3 });
    expect(await grant(stores, "a", 10, S + 100, 2)).toEqual({ granted: 2, used: 2, oldestSlot: S + 100 });
  },

  "a window that holds nothing and grants nothing has no oldest slot": async ({ stores }) => {
    expect(await grant(stores, "a", 0, S, 1)).toEqual({ granted: 0, used: 0, oldestSlot: null });
  },

  "a slot that release emptied holds no requests: it is not the oldest": async ({ stores }) => {
    await grant(stores, "a", 10, S, 3);
    await stores.limits.release("a", S, 3);
    expect(await grant(stores, "a", 10, S + 2, 1)).toEqual({ granted: 1, used: 1, oldestSlot: S + 2 });
    await grant(stores, "b", 10, S, 2);
    await stores.limits.release("b", S, 2);
    expect(await grant(stores, "b", 0, S + 1, 1)).toEqual({ granted: 0, used: 0, oldestSlot: null });
  },

  "unused requests of an earlier grant are given back before granting": async ({ stores }) => {
    expect((await grant(stores, "a", 10, S, 10)).granted).toBe(10);
    expect(await grant(stores, "a", 10, S + 1, 3, { slot: S, n: 4 })).toEqual({ granted: 3, used: 9, oldestSlot: S });
    expect(await grant(stores, "a", 10, S + 1, 5, null)).toEqual({ granted: 1, used: 10, oldestSlot: S });
    expect(await grant(stores, "a", 10, S + 1, 5, { slot: S, n: 0 })).toEqual({ granted: 0, used: 10, oldestSlot: S });
  },

  "release lowers a slot's count, from any handle, never below zero; an unknown counter is harmless": async ({ stores, peer }) => {
    await grant(stores, "a", 10, S, 4);
    await grant(stores, "a", 10, S + 1, 3);
    await stores.limits.release("a", S, 2);
    expect(await grant(stores, "a", 10, S + 2, 1)).toEqual({ granted: 1, used: 6, oldestSlot: S });
    await (await peer()).limits.release("a", S + 1, 50);
    // Slot S + 1 holds 0, not -47: the limit still caps what follows.
    expect(await grant(stores, "a", 10, S + 2, 100)).toMatchObject({ granted: 7, used: 10 });
    await stores.limits.release("nobody", S, 3);
    expect(await grant(stores, "nobody", 10, S, 1)).toEqual({ granted: 1, used: 1, oldestSlot: S });
  },

  "sweep deletes only counters no window counts any more, at most batch a call, and counts them": async ({ stores }) => {
    for (const bucket of ["a", "b", "c"]) await grant(stores, bucket, 10, S, 1);
    await grant(stores, "d", 10, S + 2, 4);
    expect(await stores.limits.sweep(endOf(S) - 1, 10)).toBe(0);
    expect(await stores.limits.sweep(endOf(S), 2)).toBe(2);
    expect(await stores.limits.sweep(endOf(S), 2)).toBe(1);
    expect(await stores.limits.sweep(endOf(S), 2)).toBe(0);
    // d's counter still counts for the windows that reach it.
    expect(await heldBeforeOne(stores, "d", S + 7)).toBe(4);
    expect(await stores.limits.sweep(endOf(S + 2), 10)).toBe(1);
    expect(await stores.limits.sweep(endOf(S + 7) - 1, 10)).toBe(0);
    expect(await stores.limits.sweep(endOf(S + 7), 10)).toBe(1);
  },

  "forget deletes the buckets' counters for every handle, and only theirs; a forgotten bucket starts afresh": async ({ stores, peer }) => {
    for (const bucket of ["key:a", "key:b", "key-issue:u", "kept"]) {
      expect((await grant(stores, bucket, 10, S, 4)).granted).toBe(4);
      expect((await grant(stores, bucket, 10, S + 1, 2)).granted).toBe(2);
    }
    await stores.limits.forget(["key:a", "key:b", "key-issue:u", "never-seen"]);
    await stores.limits.forget([]);
    const other = await peer();
    for (const bucket of ["key:a", "key:b", "key-issue:u"]) expect(await heldBeforeOne(other, bucket, S + 1)).toBe(0);
    expect(await heldBeforeOne(other, "kept", S + 1)).toBe(6);
    // A release of a forgotten counter (a lease given back late) does not bring it back below zero or at all.
    await stores.limits.forget(["key:a"]);
    await stores.limits.release("key:a", S + 1, 3);
    expect(await heldBeforeOne(stores, "key:a", S + 1)).toBe(0);
  },

  "parallel grants of one from 8 handles count exactly the limit in total": async ({ stores, parallel }) => {
    await parallelGrants(stores, await parallel(8), 5, 1);
  },

  "parallel grants of several (leases) are cut to exactly the limit in total": async ({ stores, parallel }) => {
    await parallelGrants(stores, await parallel(8), 10, 3);
  },
} satisfies Record<string, Check<Stores>>;

export function limitStoreContract(backend: ContractBackend): void {
  registerChecks("LimitStore", backend, limitStoreChecks);
}
