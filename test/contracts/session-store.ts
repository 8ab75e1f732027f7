import { expect } from "bun:test";
import type { Session, User } from "../../src/accounts/store";
import type { StateStores } from "../../src/app/state/state-stores";
import { type Check, type ContractBackend, race, registerChecks } from "./backend";
import { session, SIGNED_IN, T0, user } from "./fixtures";

type Stores = "accounts" | "sessions";

/** Sessions belong to an account: the account is made first, as sign-up and sign-in do. */
async function withAccount(stores: Pick<StateStores, "accounts">) {
  const account = user();
  await stores.accounts.insert(account);
  return account;
}

const sessionStoreChecks = {
  "an inserted session is found by its token hash, with its account, by every handle": async ({ stores, peer }) => {
    const account = await withAccount(stores);
    const persistent = session(account.id);
    const browserOnly = session(account.id, { persistent: false });
    await stores.sessions.insert(persistent, SIGNED_IN);
    await stores.sessions.insert(browserOnly, SIGNED_IN);
    expect(await stores.sessions.findByTokenHash(persistent.tokenHash)).toEqual({ session: persistent, user: account });
    expect(await (await peer()).sessions.findByTokenHash(browserOnly.tokenHash)).toEqual({ session: browserOnly, user: account });
  },

  "an unknown token hash finds nothing": async ({ stores }) => {
    const account = await withAccount(stores);
    await stores.sessions.insert(session(account.id), SIGNED_IN);
    expect(await stores.sessions.findByTokenHash("0".repeat(64))).toBeUndefined();
  },

  "an expired session is still found: expiry is the caller's rule": async ({ stores }) => {
    const account = await withAccount(stores);
    const expired = session(account.id, { expiresAt: T0 - 1000 });
    await stores.sessions.insert(expired, SIGNED_IN);
    expect((await stores.sessions.findByTokenHash(expired.tokenHash))?.session).toEqual(expired);
  },

  "extend changes expiresAt and updatedAt only, of that session only; an unknown id is harmless": async ({ stores }) => {
    const account = await withAccount(stores);
    const extended = session(account.id);
    const other = session(account.id);
    await stores.sessions.insert(extended, SIGNED_IN);
    await stores.sessions.insert(other, SIGNED_IN);
    await stores.sessions.extend(extended.id, T0 + 30 * 24 * 3600 * 1000, T0 + 5000);
    await stores.sessions.extend("no-such-session", T0, T0);
    expect((await stores.sessions.findByTokenHash(extended.tokenHash))?.session).toEqual({ ...extended, expiresAt: T0 + 30 * 24 * 3600 * 1000, updatedAt: T0 + 5000 });
    expect((await stores.sessions.findByTokenHash(other.tokenHash))?.session).toEqual(other);
  },

  "delete removes that session only, for every handle; an unknown id is harmless": async ({ stores, peer }) => {
    const account = await withAccount(stores);
    const deleted = session(account.id);
    const kept = session(account.id);
    await stores.sessions.insert(deleted, SIGNED_IN);
    await stores.sessions.insert(kept, SIGNED_IN);
    const other = await peer();
    expect(await other.sessions.findByTokenHash(deleted.tokenHash)).toBeDefined();
    await stores.sessions.delete(deleted.id);
    await stores.sessions.delete("no-such-session");
    expect(await stores.sessions.findByTokenHash(deleted.tokenHash)).toBeUndefined();
    expect(await other.sessions.findByTokenHash(deleted.tokenHash)).toBeUndefined();
    expect((await stores.sessions.findByTokenHash(kept.tokenHash))?.session).toEqual(kept);
  },

  "deleteOthersOfUser with an id no session has removes every session of that account only (the admin CLI's sign-out everywhere)": async ({ stores, peer }) => {
    const account = await withAccount(stores);
    const other = await withAccount(stores);
    const gone = [session(account.id), session(account.id, { persistent: false })];
    const kept = session(other.id);
    for (const s of [...gone, kept]) await stores.sessions.insert(s, SIGNED_IN);
    expect(await stores.sessions.deleteOthersOfUser(account.id, "")).toBe(2);
    expect(await stores.sessions.deleteOthersOfUser(account.id, "")).toBe(0);
    for (const s of gone) expect(await (await peer()).sessions.findByTokenHash(s.tokenHash)).toBeUndefined();
    expect((await stores.sessions.findByTokenHash(kept.tokenHash))?.session).toEqual(kept);
  },

  "sweepExpired removes sessions expired at now (expiresAt <= now), at most batch a call, and counts them": async ({ stores }) => {
    const account = await withAccount(stores);
    const expired: Session[] = [
      session(account.id, { expiresAt: T0 - 3600_000 }),
      session(account.id, { expiresAt: T0 - 2 }),
      session(account.id, { expiresAt: T0 - 1 }),
      session(account.id, { expiresAt: T0 }),
    ];
    const live = [session(account.id, { expiresAt: T0 + 1 }), session(account.id, { expiresAt: T0 + 3600_000 })];
    for (const s of [...live, ...expired]) await stores.sessions.insert(s, SIGNED_IN);
    expect(await stores.sessions.sweepExpired(T0, 3)).toBe(3);
    expect(await stores.sessions.sweepExpired(T0, 3)).toBe(1);
    expect(await stores.sessions.sweepExpired(T0, 3)).toBe(0);
    for (const s of expired) expect(await stores.sessions.findByTokenHash(s.tokenHash)).toBeUndefined();
    for (const s of live) expect((await stores.sessions.findByTokenHash(s.tokenHash))?.session).toEqual(s);
  },

  "sweepExpired with nothing expired removes nothing": async ({ stores }) => {
    expect(await stores.sessions.sweepExpired(T0, 100)).toBe(0);
    const account = await withAccount(stores);
    const live = session(account.id, { expiresAt: T0 + 1 });
    await stores.sessions.insert(live, SIGNED_IN);
    expect(await stores.sessions.sweepExpired(T0, 100)).toBe(0);
    expect((await stores.sessions.findByTokenHash(live.tokenHash))?.session).toEqual(live);
  },

  "listOfUser: that account's sessions only, newest first, with where they were started": async ({ stores, peer }) => {
    const [account, other] = [await withAccount(stores), await withAccount(stores)];
    const old = session(account.id, { createdAt: T0 - 2000, ipAddress: "2001:db8:1:2::/64", userAgent: "old browser" });
    const unknownClient = session(account.id, { createdAt: T0 - 1000, ipAddress: null, userAgent: null });
    const newest = session(account.id, { createdAt: T0 });
    const expired = session(account.id, { createdAt: T0 - 3000, expiresAt: T0 - 1 });
    for (const s of [newest, old, expired, unknownClient, session(other.id)]) await stores.sessions.insert(s, SIGNED_IN);
    expect(await (await peer()).sessions.listOfUser(account.id)).toEqual([newest, unknownClient, old, expired]);
    expect(await stores.sessions.listOfUser("no-such-user")).toEqual([]);
  },

  "deleteOfUser deletes the account's own session only: another's or an unknown id is false and changes nothing": async ({ stores }) => {
    const [account, other] = [await withAccount(stores), await withAccount(stores)];
    const mine = session(account.id);
    const theirs = session(other.id);
    await stores.sessions.insert(mine, SIGNED_IN);
    await stores.sessions.insert(theirs, SIGNED_IN);
    expect(await stores.sessions.deleteOfUser(account.id, theirs.id)).toBe(false);
    expect(await stores.sessions.deleteOfUser(account.id, "no-such-session")).toBe(false);
    expect(await stores.sessions.deleteOfUser(account.id, "nul\u0000id")).toBe(false);
    expect(await stores.sessions.findByTokenHash(theirs.tokenHash)).toBeDefined();
    expect(await stores.sessions.deleteOfUser(account.id, mine.id)).toBe(true);
    expect(await stores.sessions.findByTokenHash(mine.tokenHash)).toBeUndefined();
    expect(await stores.sessions.deleteOfUser(account.id, mine.id)).toBe(false);
  },

  "deleteOthersOfUser keeps the one session and the other accounts' sessions, and counts what went": async ({ stores }) => {
    const [account, other] = [await withAccount(stores), await withAccount(stores)];
    const [keep, a, b] = [session(account.id), session(account.id), session(account.id)];
    const theirs = session(other.id);
    for (const s of [keep, a, b, theirs]) await stores.sessions.insert(s, SIGNED_IN);
    expect(await stores.sessions.deleteOthersOfUser(account.id, keep.id)).toBe(2);
    expect(await stores.sessions.listOfUser(account.id)).toEqual([keep]);
    expect(await stores.sessions.findByTokenHash(theirs.tokenHash)).toBeDefined();
    expect(await stores.sessions.deleteOthersOfUser(account.id, keep.id)).toBe(0);
  },

  "insert stores a sign-in's session only while the account has the password hash it verified, exists and is enabled": async ({ stores, peer }) => {
    const account = await withAccount(stores);
    const current = session(account.id);
    expect(await stores.sessions.insert(current, SIGNED_IN)).toBe(true);
    expect(await (await peer()).sessions.findByTokenHash(current.tokenHash)).toEqual({ session: current, user: account });

    // The password changed after the sign-in read the account: a session under the old hash is refused.
    const changed = (await stores.accounts.changePassword(account.id, "$argon2id$changed", T0 + 1000))!.user;
    const stale = session(account.id);
    expect(await stores.sessions.insert(stale, SIGNED_IN)).toBe(false);
    expect(await stores.sessions.findByTokenHash(stale.tokenHash)).toBeUndefined();
    const fresh = session(account.id);
    expect(await stores.sessions.insert(fresh, { ...SIGNED_IN, whilePasswordHash: "$argon2id$changed" })).toBe(true);
    expect(await stores.sessions.findByTokenHash(fresh.tokenHash)).toEqual({ session: fresh, user: changed });

    // Disabled: refused under the right hash; enabled again, stored.
    await stores.accounts.setDisabled(account.id, true, T0 + 2000);
    const whileDisabled = session(account.id);
    expect(await stores.sessions.insert(whileDisabled, { ...SIGNED_IN, whilePasswordHash: "$argon2id$changed" })).toBe(false);
    expect(await stores.sessions.findByTokenHash(whileDisabled.tokenHash)).toBeUndefined();
    await stores.accounts.setDisabled(account.id, false, T0 + 3000);
    expect(await stores.sessions.insert(session(account.id), { ...SIGNED_IN, whilePasswordHash: "$argon2id$changed" })).toBe(true);

    // Deleted, unknown: refused, not a foreign-key error.
    await stores.accounts.delete(account.id, T0 + 4000);
    expect(await stores.sessions.insert(session(account.id), { ...SIGNED_IN, whilePasswordHash: "$argon2id$changed" })).toBe(false);
    expect(await stores.sessions.insert(session("no-such-user"), SIGNED_IN)).toBe(false);
    expect(await stores.sessions.listOfUser(account.id)).toEqual([]);
  },

  "an account without a password gets no session, whatever hash is named": async ({ stores }) => {
    const passwordless = user({ passwordHash: null });
    await stores.accounts.insert(passwordless);
    expect(await stores.sessions.insert(session(passwordless.id), SIGNED_IN)).toBe(false);
    expect(await stores.sessions.insert(session(passwordless.id), { ...SIGNED_IN, whilePasswordHash: "" })).toBe(false);
    expect(await stores.sessions.listOfUser(passwordless.id)).toEqual([]);
  },

  "insert keeps maxPerAccount sessions of the account: the new one and the newest others (by createdAt); another account's stay": async ({ stores }) => {
    const [account, other] = [await withAccount(stores), await withAccount(stores)];
    const bounded = { ...SIGNED_IN, maxPerAccount: 3 };
    const theirs = [session(other.id, { createdAt: T0 - 9000 }), session(other.id, { createdAt: T0 - 8000 })];
    for (const s of theirs) await stores.sessions.insert(s, SIGNED_IN);
    const [oldest, older, newer] = [session(account.id, { createdAt: T0 - 3000 }), session(account.id, { createdAt: T0 - 2000 }), session(account.id, { createdAt: T0 - 1000 })];
    // Stored out of order: the order that counts is createdAt's.
    for (const s of [newer, oldest, older]) expect(await stores.sessions.insert(s, bounded)).toBe(true);
    expect(await stores.sessions.listOfUser(account.id)).toEqual([newer, older, oldest]);
    const newest = session(account.id, { createdAt: T0 });
    expect(await stores.sessions.insert(newest, bounded)).toBe(true);
    expect(await stores.sessions.listOfUser(account.id)).toEqual([newest, newer, older]);
    expect(await stores.sessions.findByTokenHash(oldest.tokenHash)).toBeUndefined();
    // A new session started by a clock running behind still stays; the oldest other goes.
    const late = session(account.id, { createdAt: T0 - 60_000 });
    expect(await stores.sessions.insert(late, bounded)).toBe(true);
    expect(await stores.sessions.listOfUser(account.id)).toEqual([newest, newer, late]);
    expect(await stores.sessions.listOfUser(other.id)).toEqual([...theirs].reverse());
  },

  "parallel sign-ins of one account never leave it more than maxPerAccount sessions, each stored one the newest": async ({ stores, parallel }) => {
    const handles = await parallel(8);
    const accounts: User[] = [];
    for (let i = 0; i < 6; i++) accounts.push(await withAccount(stores));
    const bounded = { ...SIGNED_IN, maxPerAccount: 3 };
    for (let round = 0; round < 2; round++) {
      const started = await race(handles, accounts, async (h, account) => {
        const s = session(account.id, { createdAt: T0 + round });
        return { s, stored: await h.sessions.insert(s, bounded) };
      });
      for (const [n, account] of accounts.entries()) {
        expect(started[n]!.every((answer) => answer.stored)).toBe(true);
        const kept = await stores.sessions.listOfUser(account.id);
        expect(kept).toHaveLength(3);
        const ids = new Set(started[n]!.map((answer) => answer.s.id));
        expect(kept.every((s) => ids.has(s.id))).toBe(true);
      }
    }
  },

  "sign-ins racing the account's deletion: stored (and then deleted with it) or refused, never an error": async ({ stores, parallel }) => {
    const handles = await parallel(8);
    const accounts: User[] = [];
    for (let i = 0; i < 12; i++) accounts.push(await withAccount(stores));
    await race(handles, accounts, (h, account, i) => (i === 0 ? h.accounts.delete(account.id, T0) : h.sessions.insert(session(account.id), SIGNED_IN)));
    for (const account of accounts) expect(await stores.sessions.listOfUser(account.id)).toEqual([]);
  },
} satisfies Record<string, Check<Stores>>;

export function sessionStoreContract(backend: ContractBackend): void {
  registerChecks("SessionStore", backend, sessionStoreChecks);
}
