import { expect } from "bun:test";
import type { StateStores } from "../../src/app/state/state-stores";
import type { ApiKey } from "../../src/keys/store";
import type { UsageDelta } from "../../src/usage/store";
import { type Check, type ContractBackend, onEach, registerChecks } from "./backend";
import { apiKey, T0, user } from "./fixtures";

type Stores = "accounts" | "keys" | "usage";

const H = 3600_000;

/** Usage belongs to keys: an account and `n` keys of it, as `POST /v1/keys` makes them. */
async function keysOfAnAccount(stores: Pick<StateStores, "accounts" | "keys">, n: number, account = user()): Promise<string[]> {
  await stores.accounts.insert(account);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(((await stores.keys.insertWithinLimit(apiKey(account.id), 100)) as ApiKey).id);
  return ids;
}

const delta = (keyId: string, hour: number, allowed: number, refused: number): UsageDelta => ({ keyId, hour, allowed, refused });

const usageStoreChecks = {
  "added counts are summed per key and hour, listed oldest first from `since`, by every handle": async ({ stores, peer }) => {
    const [a, b] = await keysOfAnAccount(stores, 2);
    await stores.usage.add([delta(a!, T0, 5, 1), delta(a!, T0 - 2 * H, 7, 0), delta(b!, T0, 1, 1)]);
    await stores.usage.add([delta(a!, T0, 2, 3)]);
    await stores.usage.add([]);
    const other = await peer();
    expect(await other.usage.hours(a!, T0 - 2 * H)).toEqual([
      { hour: T0 - 2 * H, allowed: 7, refused: 0 },
      { hour: T0, allowed: 7, refused: 4 },
    ]);
    expect(await other.usage.hours(a!, T0 - H)).toEqual([{ hour: T0, allowed: 7, refused: 4 }]);
    expect(await other.usage.hours(b!, 0)).toEqual([{ hour: T0, allowed: 1, refused: 1 }]);
    expect(await other.usage.hours("no-such-key", 0)).toEqual([]);
  },

  "counts of a key that does not exist (deleted with its account) are dropped, the others kept": async ({ stores }) => {
    const [a] = await keysOfAnAccount(stores, 1);
    await stores.usage.add([delta("no-such-key", T0, 9, 9), delta(a!, T0, 1, 0)]);
    expect(await stores.usage.hours("no-such-key", 0)).toEqual([]);
    expect(await stores.usage.hours(a!, 0)).toEqual([{ hour: T0, allowed: 1, refused: 0 }]);
  },

  "8 handles adding to the same hours at once: every count is kept (adds are atomic)": async ({ stores, parallel }) => {
    const keys = await keysOfAnAccount(stores, 3);
    const handles = await parallel(8);
    // Each handle adds its batch 5 times; the batches overlap in every row, listed in different orders.
    await onEach(handles, async (handle, i) => {
      const rows = keys.flatMap((keyId) => [delta(keyId, T0, 1, 0), delta(keyId, T0 + H, 2, 1)]);
      for (let round = 0; round < 5; round++) await handle.usage.add(i % 2 === 0 ? rows : [...rows].reverse());
    });
    for (const keyId of keys) {
      expect(await stores.usage.hours(keyId, 0)).toEqual([
        { hour: T0, allowed: 40, refused: 0 },
        { hour: T0 + H, allowed: 80, refused: 40 },
      ]);
    }
  },

  "sweep deletes hours before `before`, at most batch a call, and counts them": async ({ stores }) => {
    const [a, b] = await keysOfAnAccount(stores, 2);
    await stores.usage.add([delta(a!, T0 - 3 * H, 1, 0), delta(a!, T0 - 2 * H, 1, 0), delta(b!, T0 - 2 * H, 1, 0), delta(a!, T0 - H, 1, 0), delta(a!, T0, 1, 0)]);
    expect(await stores.usage.sweep(T0 - H, 2)).toBe(2);
    expect(await stores.usage.sweep(T0 - H, 2)).toBe(1);
    expect(await stores.usage.sweep(T0 - H, 2)).toBe(0);
    expect((await stores.usage.hours(a!, 0)).map((h) => h.hour)).toEqual([T0 - H, T0]);
    expect(await stores.usage.hours(b!, 0)).toEqual([]);
  },

  "a key's usage goes when the key is swept (revoked past the retention)": async ({ stores }) => {
    const account = user();
    const [a] = await keysOfAnAccount(stores, 1, account);
    await stores.usage.add([delta(a!, T0, 4, 0)]);
    await stores.keys.revoke(account.id, a!, T0);
    await stores.keys.sweep(T0 + 365 * 24 * H, 100);
    expect(await stores.usage.hours(a!, 0)).toEqual([]);
  },
} satisfies Record<string, Check<Stores>>;

export function usageStoreContract(backend: ContractBackend): void {
  registerChecks("UsageStore", backend, usageStoreChecks);
}
