import { expect } from "bun:test";
import type { StateStores } from "../../src/app/state/state-stores";
import { type ApiKey, REVOKED_KEY_RETENTION_MS } from "../../src/keys/store";
import { type Check, type ContractBackend, race, registerChecks } from "./backend";
import { apiKey, T0, user } from "./fixtures";

type Stores = "accounts" | "keys" | "keyRevocations" | "usage";

/** Keys belong to an account: the account is made first, as `POST /v1/keys` behind sign-in has it. */
async function withAccount(stores: Pick<StateStores, "accounts">) {
  const account = user();
  await stores.accounts.insert(account);
  return account.id;
}

async function issue(stores: Pick<StateStores, "keys">, key: ApiKey, maxActive = 100): Promise<ApiKey> {
  const issued = await stores.keys.insertWithinLimit(key, maxActive);
  expect(issued).toEqual(key);
  return issued as ApiKey;
}

const ids = (keys: ApiKey[]) => keys.map((key) => key.id);

const keyStoreChecks = {
  "countActive: keys not revoked, over every account": async ({ stores }) => {
    expect(await stores.keys.countActive()).toBe(0);
    const first = await withAccount(stores);
    const second = await withAccount(stores);
    const revoked = await issue(stores, apiKey(first));
    await issue(stores, apiKey(first));
    await issue(stores, apiKey(second));
    await stores.keys.revoke(first, revoked.id, T0 + 1000);
    expect(await stores.keys.countActive()).toBe(2);
  },

  "an issued key is returned as given and found by its hash; an unknown hash finds nothing": async ({ stores, peer }) => {
    const userId = await withAccount(stores);
    const key = await issue(stores, apiKey(userId, { lastUsedAt: T0 - 1000 }));
    expect(await stores.keys.findActiveByHash(key.keyHash)).toEqual(key);
    expect(await (await peer()).keys.findActiveByHash(key.keyHash)).toEqual(key);
    expect(await stores.keys.findActiveByHash("f".repeat(64))).toBeUndefined();
  },

  "listActive: the account's active keys only, newest first, of one millisecond the later first": async ({ stores }) => {
    const [userId, otherId] = [await withAccount(stores), await withAccount(stores)];
    const oldest = await issue(stores, apiKey(userId, { createdAt: T0 }));
    const sameMsFirst = await issue(stores, apiKey(userId, { createdAt: T0 + 1000 }));
    const sameMsLater = await issue(stores, apiKey(userId, { createdAt: T0 + 1000 }));
    // Issued after the two above but created earlier (a clock step back): createdAt decides, not insertion.
    const middle = await issue(stores, apiKey(userId, { createdAt: T0 + 500 }));
    const revoked = await issue(stores, apiKey(userId, { createdAt: T0 + 2000 }));
    await stores.keys.revoke(userId, revoked.id, T0 + 3000);
    await issue(stores, apiKey(otherId, { createdAt: T0 + 1000 }));
    expect(await stores.keys.listActive(userId)).toEqual([sameMsLater, sameMsFirst, middle, oldest]);
    expect(await stores.keys.listActive("no-such-user")).toEqual([]);
  },

  "an account with maxActive active keys is refused (KEY_LIMIT_REACHED) and the refused key is not written": async ({ stores }) => {
    const [userId, otherId] = [await withAccount(stores), await withAccount(stores)];
    const kept = [await issue(stores, apiKey(userId), 2), await issue(stores, apiKey(userId), 2)];
    const refused = apiKey(userId);
    expect(await stores.keys.insertWithinLimit(refused, 2)).toBe("KEY_LIMIT_REACHED");
    expect(await stores.keys.findActiveByHash(refused.keyHash)).toBeUndefined();
    expect((await stores.keys.listActive(userId)).map((k) => k.id).sort()).toEqual(ids(kept).sort());
    // The limit is per account.
    await issue(stores, apiKey(otherId), 2);
  },

  "revoked keys do not count toward maxActive": async ({ stores }) => {
    const userId = await withAccount(stores);
    const first = await issue(stores, apiKey(userId), 2);
    await issue(stores, apiKey(userId), 2);
    expect(await stores.keys.revoke(userId, first.id, T0)).toBeDefined();
    await issue(stores, apiKey(userId), 2);
    expect(await stores.keys.insertWithinLimit(apiKey(userId), 2)).toBe("KEY_LIMIT_REACHED");
  },

  "12 handles issuing keys for one account at once never pass maxActive: exactly 3 issued": async ({ stores, parallel }) => {
    const accounts: string[] = [];
    for (let i = 0; i < 8; i++) accounts.push(await withAccount(stores));
    const results = await race(await parallel(12), accounts, (h, userId) => h.keys.insertWithinLimit(apiKey(userId), 3));
    for (const [n, userId] of accounts.entries()) {
      const issued = results[n]!.filter((r): r is ApiKey => typeof r === "object");
      expect(results[n]!.filter((r) => r === "KEY_LIMIT_REACHED")).toHaveLength(9);
      expect(issued).toHaveLength(3);
      expect((await stores.keys.listActive(userId)).map((k) => k.id).sort()).toEqual(ids(issued).sort());
    }
  },

  "a key for an account that is gone (deleted, unknown) is refused (ACCOUNT_NOT_FOUND), not a foreign-key error": async ({ stores }) => {
    const userId = await withAccount(stores);
    await stores.accounts.delete(userId, T0);
    const orphan = apiKey(userId);
    expect(await stores.keys.insertWithinLimit(orphan, 100)).toBe("ACCOUNT_NOT_FOUND");
    expect(await stores.keys.insertWithinLimit(apiKey("no-such-user"), 100)).toBe("ACCOUNT_NOT_FOUND");
    expect(await stores.keys.findById(orphan.id)).toBeUndefined();
  },

  "key issues racing the account's deletion: stored (and deleted with it) or ACCOUNT_NOT_FOUND, never an error": async ({ stores, parallel }) => {
    const handles = await parallel(8);
    const accounts: string[] = [];
    for (let i = 0; i < 12; i++) accounts.push(await withAccount(stores));
    const results = await race(handles, accounts, (h, userId, i) => (i === 0 ? h.accounts.delete(userId, T0) : h.keys.insertWithinLimit(apiKey(userId), 100)));
    for (const [n, userId] of accounts.entries()) {
      for (const result of results[n]!.slice(1)) expect(typeof result === "object" || result === "ACCOUNT_NOT_FOUND").toBe(true);
      expect(await stores.keys.listActive(userId)).toEqual([]);
    }
  },

  "revoke returns the key with revokedAt = now; it is then neither found nor listed, by any handle": async ({ stores, peer }) => {
    const userId = await withAccount(stores);
    const key = await issue(stores, apiKey(userId));
    const kept = await issue(stores, apiKey(userId));
    const other = await peer();
    expect(await other.keys.findActiveByHash(key.keyHash)).toEqual(key);
    expect(await stores.keys.revoke(userId, key.id, T0 + 60_000)).toEqual({ ...key, revokedAt: T0 + 60_000 });
    expect(await stores.keys.findActiveByHash(key.keyHash)).toBeUndefined();
    expect(await other.keys.findActiveByHash(key.keyHash)).toBeUndefined();
    expect(await other.keys.listActive(userId)).toEqual([kept]);
  },

  "revoke answers undefined for a key revoked already, another account's key, an unknown id, and changes nothing": async ({ stores }) => {
    const [userId, otherId] = [await withAccount(stores), await withAccount(stores)];
    const revoked = await issue(stores, apiKey(userId));
    const others = await issue(stores, apiKey(otherId));
    await stores.keys.revoke(userId, revoked.id, T0 + 1000);
    expect(await stores.keys.revoke(userId, revoked.id, T0 + 2000)).toBeUndefined();
    expect(await stores.keys.revoke(userId, others.id, T0 + 2000)).toBeUndefined();
    expect(await stores.keys.revoke(userId, "no-such-key", T0 + 2000)).toBeUndefined();
    // Ids no key has, as a client may send them (DELETE /v1/keys/%00): a NUL, which PostgreSQL's text cannot hold, and a lone surrogate.
    for (const id of ["\u0000", `${revoked.id}\u0000`, "\uD800"]) expect(await stores.keys.revoke(userId, id, T0 + 2000)).toBeUndefined();
    expect(await stores.keys.findActiveByHash(others.keyHash)).toEqual(others);
    expect(await stores.keys.listActive(otherId)).toEqual([others]);
  },

  "parallel revokes of one key: exactly one returns it": async ({ stores, parallel }) => {
    const userId = await withAccount(stores);
    const keys: ApiKey[] = [];
    for (let i = 0; i < 20; i++) keys.push(await issue(stores, apiKey(userId)));
    const results = await race(await parallel(8), keys, (h, key, i) => h.keys.revoke(userId, key.id, T0 + i));
    for (const [n, key] of keys.entries()) {
      const winners = results[n]!.filter((r) => r !== undefined);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toEqual({ ...key, revokedAt: winners[0]!.revokedAt });
    }
    expect(await stores.keys.listActive(userId)).toEqual([]);
  },

  "a disabled account's keys are not found by hash, by any handle, until it is enabled again": async ({ stores, peer }) => {
    const [userId, otherId] = [await withAccount(stores), await withAccount(stores)];
    const key = await issue(stores, apiKey(userId));
    const others = await issue(stores, apiKey(otherId));
    await stores.accounts.setDisabled(userId, true, T0);
    expect(await stores.keys.findActiveByHash(key.keyHash)).toBeUndefined();
    expect(await (await peer()).keys.findActiveByHash(key.keyHash)).toBeUndefined();
    expect(await stores.keys.findActiveByHash(others.keyHash)).toEqual(others);
    // Still active: listed, and found again once the account is enabled.
    expect(await stores.keys.listActive(userId)).toEqual([key]);
    await stores.accounts.setDisabled(userId, false, T0 + 1);
    expect(await stores.keys.findActiveByHash(key.keyHash)).toEqual(key);
  },

  "findById: the key revoked or not; an unknown id is undefined": async ({ stores }) => {
    const userId = await withAccount(stores);
    const key = await issue(stores, apiKey(userId));
    const revoked = await issue(stores, apiKey(userId));
    await stores.keys.revoke(userId, revoked.id, T0 + 1000);
    expect(await stores.keys.findById(key.id)).toEqual(key);
    expect(await stores.keys.findById(revoked.id)).toEqual({ ...revoked, revokedAt: T0 + 1000 });
    for (const id of ["no-such-key", "\u0000"]) expect(await stores.keys.findById(id)).toBeUndefined();
  },

  "listAllActive: every account's active keys, newest first": async ({ stores }) => {
    expect(await stores.keys.listAllActive()).toEqual([]);
    const [userId, otherId] = [await withAccount(stores), await withAccount(stores)];
    const oldest = await issue(stores, apiKey(userId, { createdAt: T0 }));
    const others = await issue(stores, apiKey(otherId, { createdAt: T0 + 1000 }));
    const revoked = await issue(stores, apiKey(userId, { createdAt: T0 + 2000 }));
    const newest = await issue(stores, apiKey(userId, { createdAt: T0 + 2000 }));
    await stores.keys.revoke(userId, revoked.id, T0 + 3000);
    expect(await stores.keys.listAllActive()).toEqual([newest, others, oldest]);
  },

  "forgetAccountKeys: the hashes of the account's active keys, which stay active": async ({ stores }) => {
    const [userId, otherId] = [await withAccount(stores), await withAccount(stores)];
    const keys = [await issue(stores, apiKey(userId)), await issue(stores, apiKey(userId))];
    const revoked = await issue(stores, apiKey(userId));
    await stores.keys.revoke(userId, revoked.id, T0);
    await issue(stores, apiKey(otherId));
    expect([...(await stores.keys.forgetAccountKeys(userId, T0 + 1))].sort()).toEqual(keys.map((k) => k.keyHash).sort());
    expect(await stores.keys.forgetAccountKeys("no-such-user", T0 + 1)).toEqual([]);
    expect((await stores.keys.listActive(userId)).map((k) => k.id).sort()).toEqual(ids(keys).sort());
  },

  "rename renames the account's own active key and returns it; another's, a revoked or an unknown key: undefined": async ({ stores, peer }) => {
    const [userId, otherId] = [await withAccount(stores), await withAccount(stores)];
    const key = await issue(stores, apiKey(userId));
    const revoked = await issue(stores, apiKey(userId));
    const theirs = await issue(stores, apiKey(otherId));
    await stores.keys.revoke(userId, revoked.id, T0);
    expect(await stores.keys.rename(userId, key.id, "renamed")).toEqual({ ...key, name: "renamed" });
    expect(await (await peer()).keys.listActive(userId)).toEqual([{ ...key, name: "renamed" }]);
    expect(await stores.keys.rename(userId, revoked.id, "x")).toBeUndefined();
    expect(await stores.keys.rename(userId, theirs.id, "x")).toBeUndefined();
    expect(await stores.keys.rename(userId, "no-such-key", "x")).toBeUndefined();
    expect(await stores.keys.rename(userId, "nul\u0000key", "x")).toBeUndefined();
    expect(await stores.keys.findActiveByHash(theirs.keyHash)).toEqual(theirs);
  },

  "touch sets lastUsedAt when it is null or older than staleBefore, and not otherwise; an unknown id is harmless": async ({ stores }) => {
    const userId = await withAccount(stores);
    const key = await issue(stores, apiKey(userId));
    const lastUsed = async () => (await stores.keys.findActiveByHash(key.keyHash))!.lastUsedAt;
    await stores.keys.touch(key.id, T0 + 100, T0 + 50);
    expect(await lastUsed()).toBe(T0 + 100);
    await stores.keys.touch(key.id, T0 + 200, T0 + 100); // already staleBefore: kept
    expect(await lastUsed()).toBe(T0 + 100);
    await stores.keys.touch(key.id, T0 + 300, T0 + 60); // later than staleBefore: kept
    expect(await lastUsed()).toBe(T0 + 100);
    await stores.keys.touch(key.id, T0 + 400, T0 + 101); // older than staleBefore: set
    expect(await lastUsed()).toBe(T0 + 400);
    expect((await stores.keys.listActive(userId))[0]!.lastUsedAt).toBe(T0 + 400);
    await stores.keys.touch("no-such-key", T0 + 500, T0 + 500);
    expect(await stores.keys.findActiveByHash(key.keyHash)).toEqual({ ...key, lastUsedAt: T0 + 400 });
  },

  "sweep removes keys revoked longer ago than the retention, at most batch a call, never active ones": async ({ stores }) => {
    const userId = await withAccount(stores);
    const active = await issue(stores, apiKey(userId, { createdAt: T0 - 3600_000 }));
    for (let i = 0; i < 5; i++) await stores.keys.revoke(userId, (await issue(stores, apiKey(userId))).id, T0);
    const day = 24 * 3600_000;
    await stores.keys.revoke(userId, (await issue(stores, apiKey(userId))).id, T0 + day);
    // Just before the retention ends no key may go, only the backend's own bookkeeping (SQLite's revocation
    // log is kept an hour): drained first, so that the counts below are the keys alone.
    let rounds = 0;
    while ((await stores.keys.sweep(T0 + REVOKED_KEY_RETENTION_MS - 1, 100)) > 0) expect(++rounds).toBeLessThan(10);
    const afterRetention = T0 + REVOKED_KEY_RETENTION_MS + 1;
    expect(await stores.keys.sweep(afterRetention, 2)).toBe(2);
    expect(await stores.keys.sweep(afterRetention, 2)).toBe(2);
    expect(await stores.keys.sweep(afterRetention, 2)).toBe(1);
    expect(await stores.keys.sweep(afterRetention, 2)).toBe(0);
    expect(await stores.keys.sweep(afterRetention + day, 100)).toBe(1);
    expect(await stores.keys.sweep(T0 + 100 * REVOKED_KEY_RETENTION_MS, 100)).toBe(0);
    expect(await stores.keys.listActive(userId)).toEqual([active]);
  },
} satisfies Record<string, Check<Stores>>;

/** What `takeRevoked` may say after the given keys were revoked: their hashes, or "all". */
function expectReports(taken: readonly string[] | "all", hashes: string[]): void {
  if (taken !== "all") expect([...taken].sort()).toEqual([...hashes].sort());
}

async function revokeAndAnnounce(stores: Pick<StateStores, "keys" | "keyRevocations">, key: ApiKey, now = T0): Promise<void> {
  expect(await stores.keys.revoke(key.userId, key.id, now)).toBeDefined();
  await stores.keyRevocations.onRevoked(key.keyHash);
}

const keyRevocationsChecks = {
  "with no revocation every handle takes nothing: an empty list": async ({ stores, peer }) => {
    const other = await peer();
    expect(stores.keyRevocations.takeRevoked()).toEqual([]);
    expect(other.keyRevocations.takeRevoked()).toEqual([]);
    await issue(stores, apiKey(await withAccount(stores)));
    expect(stores.keyRevocations.takeRevoked()).toEqual([]);
    expect(other.keyRevocations.takeRevoked()).toEqual([]);
  },

  "a revocation announced by one handle reaches another (its hash, or all) once; the next take is empty": async ({ stores, peer }) => {
    const other = await peer();
    const userId = await withAccount(stores);
    const revoked = await issue(stores, apiKey(userId));
    await issue(stores, apiKey(userId));
    await revokeAndAnnounce(stores, revoked);
    expectReports(other.keyRevocations.takeRevoked(), [revoked.keyHash]);
    expect(other.keyRevocations.takeRevoked()).toEqual([]);
    // "Every process, this one included."
    expectReports(stores.keyRevocations.takeRevoked(), [revoked.keyHash]);
    expect(stores.keyRevocations.takeRevoked()).toEqual([]);
  },

  "an account's forgotten keys reach another handle (their hashes, or all) once announced": async ({ stores, peer }) => {
    const other = await peer();
    const userId = await withAccount(stores);
    const keys = [await issue(stores, apiKey(userId)), await issue(stores, apiKey(userId))];
    await stores.accounts.setDisabled(userId, true, T0);
    const hashes = await stores.keys.forgetAccountKeys(userId, T0);
    for (const keyHash of hashes) await stores.keyRevocations.onRevoked(keyHash);
    expectReports(other.keyRevocations.takeRevoked(), keys.map((k) => k.keyHash));
    expect(other.keyRevocations.takeRevoked()).toEqual([]);
  },

  "several revocations reach another handle together; a later one is reported alone": async ({ stores, peer }) => {
    const other = await peer();
    const userId = await withAccount(stores);
    const keys = [await issue(stores, apiKey(userId)), await issue(stores, apiKey(userId)), await issue(stores, apiKey(userId))];
    await revokeAndAnnounce(stores, keys[0]!);
    await revokeAndAnnounce(stores, keys[1]!);
    expectReports(other.keyRevocations.takeRevoked(), [keys[0]!.keyHash, keys[1]!.keyHash]);
    // Revoked through the other handle this time: the first hears of it from its own take.
    await revokeAndAnnounce(other, keys[2]!);
    expectReports(stores.keyRevocations.takeRevoked(), [keys[0]!.keyHash, keys[1]!.keyHash, keys[2]!.keyHash]);
    expectReports(other.keyRevocations.takeRevoked(), [keys[2]!.keyHash]);
    expect(other.keyRevocations.takeRevoked()).toEqual([]);
    expect(stores.keyRevocations.takeRevoked()).toEqual([]);
  },

  "an account's deletion, announced key by key, makes every handle drop those keys (their hashes, or all)": async ({ stores, peer }) => {
    const other = await peer();
    const account = user();
    await stores.accounts.insert(account);
    const keys = [await issue(stores, apiKey(account.id)), await issue(stores, apiKey(account.id))];
    const deleted = await stores.accounts.delete(account.id, T0);
    for (const key of deleted!.keys) await stores.keyRevocations.onRevoked(key.keyHash);
    const taken = other.keyRevocations.takeRevoked();
    expect(taken === "all" || keys.every((key) => taken.includes(key.keyHash))).toBe(true);
    expect(other.keyRevocations.takeRevoked()).toEqual([]);
  },
} satisfies Record<string, Check<Stores>>;

/**
 * A backend without a revocation signal must say so consistently: never a revocation it cannot know of,
 * so that nothing comes to rely on it. The revoked key itself is gone from the store for every handle at
 * once (KeyStore's checks), which is what the key cache falls back on within its second.
 */
const unsignalledRevocationsChecks = {
  "with no revocation every handle takes nothing: an empty list": keyRevocationsChecks["with no revocation every handle takes nothing: an empty list"],

  "without a signal a revocation is announced to no handle, not even the revoking one: empty lists": async ({ stores, peer }) => {
    const other = await peer();
    const userId = await withAccount(stores);
    const revoked = await issue(stores, apiKey(userId));
    await revokeAndAnnounce(stores, revoked);
    expect(other.keyRevocations.takeRevoked()).toEqual([]);
    expect(stores.keyRevocations.takeRevoked()).toEqual([]);
    expect(await other.keys.findActiveByHash(revoked.keyHash)).toBeUndefined();
  },
} satisfies Record<string, Check<Stores>>;

export function keyStoreContract(backend: ContractBackend): void {
  registerChecks("KeyStore", backend, keyStoreChecks);
  registerChecks("KeyRevocations", backend, backend.revocationSignal === "none" ? unsignalledRevocationsChecks : keyRevocationsChecks);
}
