import { expect } from "bun:test";
import type { Session } from "../../src/accounts/store";
import { type Check, type ContractBackend, items, race, registerChecks } from "./backend";
import { apiKey, PASSWORD_HASH, session, SIGNED_IN, T0, user } from "./fixtures";

type Stores = "accounts" | "sessions" | "keys" | "usage";

const accountStoreChecks = {
  "count: how many accounts there are, as every handle sees it": async ({ stores, peer }) => {
    expect(await stores.accounts.count()).toBe(0);
    await stores.accounts.insert(user());
    await stores.accounts.insert(user());
    expect(await stores.accounts.count()).toBe(2);
    expect(await (await peer()).accounts.count()).toBe(2);
  },

  "an unknown e-mail finds nothing": async ({ stores }) => {
    await stores.accounts.insert(user({ email: "known@example.com" }));
    expect(await stores.accounts.findByEmail("unknown@example.com")).toBeUndefined();
  },

  "an account is found by its id, as every handle sees it; an unknown id finds nothing": async ({ stores, peer }) => {
    const account = user({ emailVerified: true });
    const other = user();
    await stores.accounts.insert(account);
    await stores.accounts.insert(other);
    expect(await stores.accounts.findById(account.id)).toEqual(account);
    expect(await (await peer()).accounts.findById(other.id)).toEqual(other);
    expect(await stores.accounts.findById("usr_unknown")).toBeUndefined();
  },

  "an inserted account is returned and found as it was given, every field's type kept": async ({ stores, peer }) => {
    // Both shapes of the nullable and boolean fields: a backend storing 0/1 or "" must still answer these.
    const withPassword = user({ emailVerified: true, image: "https://example.com/a.png" });
    const withoutPassword = user({ passwordHash: null, createdAt: 1, updatedAt: 2 });
    expect(await stores.accounts.insert(withPassword)).toEqual(withPassword);
    expect(await stores.accounts.insert(withoutPassword)).toEqual(withoutPassword);
    expect(await stores.accounts.findByEmail(withPassword.email)).toEqual(withPassword);
    expect(await (await peer()).accounts.findByEmail(withoutPassword.email)).toEqual(withoutPassword);
  },

  "an account inserted with its first session: the session is found by its token hash, with the account": async ({ stores }) => {
    const account = user();
    const first = session(account.id, { persistent: false });
    expect(await stores.accounts.insert(account, first)).toEqual(account);
    expect(await stores.sessions.findByTokenHash(first.tokenHash)).toEqual({ session: first, user: account });
  },

  "a taken e-mail: undefined, and nothing is written, not even the first session": async ({ stores }) => {
    const first = user({ email: "taken@example.com" });
    await stores.accounts.insert(first);
    const second = user({ email: "taken@example.com", name: "Someone else" });
    const secondSession = session(second.id);
    expect(await stores.accounts.insert(second, secondSession)).toBeUndefined();
    expect(await stores.accounts.findByEmail("taken@example.com")).toEqual(first);
    expect(await stores.sessions.findByTokenHash(secondSession.tokenHash)).toBeUndefined();
  },

  "parallel sign-ups of one e-mail: exactly one wins, and only its session exists": async ({ stores, parallel }) => {
    const handles = await parallel(8);
    // attempts[e][h]: handle h signing up e-mail e, with an account id and a first session of its own.
    const attempts = items("race", 10).map((name) =>
      handles.map(() => {
        const account = user({ email: `${name}@example.com` });
        return { account, first: session(account.id) };
      }),
    );
    const results = await race(handles, attempts, (h, tries, i) => h.accounts.insert(tries[i]!.account, tries[i]!.first));
    for (const [e, tries] of attempts.entries()) {
      const winners = tries.filter((_, i) => results[e]![i] !== undefined);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!.account;
      expect(results[e]!.find((result) => result !== undefined)).toEqual(winner);
      expect(await stores.accounts.findByEmail(winner.email)).toEqual(winner);
      for (const { account, first } of tries) {
        expect(await stores.sessions.findByTokenHash(first.tokenHash)).toEqual(account === winner ? { session: first, user: account } : undefined);
      }
    }
  },

  "list: every account, oldest first, as stored": async ({ stores }) => {
    expect(await stores.accounts.list()).toEqual([]);
    const later = user({ createdAt: T0 + 1000, updatedAt: T0 + 1000 });
    const earlier = user({ createdAt: T0, passwordHash: null });
    await stores.accounts.insert(later);
    await stores.accounts.insert(earlier);
    expect(await stores.accounts.list()).toEqual([earlier, later]);
  },

  "setDisabled: disabledAt and updatedAt become now, a second disable keeps the first time, enable clears it; others untouched": async ({ stores, peer }) => {
    const account = user();
    const other = user();
    await stores.accounts.insert(account);
    await stores.accounts.insert(other);
    expect(await stores.accounts.setDisabled(account.id, true, T0 + 1000)).toEqual({ ...account, disabledAt: T0 + 1000, updatedAt: T0 + 1000 });
    expect(await stores.accounts.setDisabled(account.id, true, T0 + 2000)).toEqual({ ...account, disabledAt: T0 + 1000, updatedAt: T0 + 2000 });
    expect(await (await peer()).accounts.findByEmail(account.email)).toEqual({ ...account, disabledAt: T0 + 1000, updatedAt: T0 + 2000 });
    expect(await stores.accounts.findByEmail(other.email)).toEqual(other);
    expect(await stores.accounts.setDisabled(account.id, false, T0 + 3000)).toEqual({ ...account, disabledAt: null, updatedAt: T0 + 3000 });
    expect(await stores.accounts.setDisabled("no-such-user", true, T0)).toBeUndefined();
  },

  "rename sets the name and updatedAt only, for every handle; an unknown account: undefined": async ({ stores, peer }) => {
    const account = user();
    await stores.accounts.insert(account);
    const renamed = { ...account, name: "Renamed", updatedAt: T0 + 5000 };
    expect(await stores.accounts.rename(account.id, "Renamed", T0 + 5000)).toEqual(renamed);
    expect(await (await peer()).accounts.findByEmail(account.email)).toEqual(renamed);
    expect(await stores.accounts.rename("no-such-user", "X", T0)).toBeUndefined();
  },

  "changePassword alone keeps every session; with endSessions every one ends (counted), and replaceWith is left alone": async ({ stores, peer }) => {
    const account = user();
    const [a, b] = [session(account.id), session(account.id)];
    await stores.accounts.insert(account, a);
    await stores.sessions.insert(b, SIGNED_IN);
    const changed = { ...account, passwordHash: "$argon2id$new-1", updatedAt: T0 + 1000 };
    expect(await stores.accounts.changePassword(account.id, "$argon2id$new-1", T0 + 1000)).toEqual({ user: changed, sessionsEnded: 0 });
    expect(await stores.sessions.findByTokenHash(a.tokenHash)).toBeDefined();
    expect(await stores.sessions.findByTokenHash(b.tokenHash)).toBeDefined();

    const other = user();
    const othersSession = session(other.id);
    await stores.accounts.insert(other, othersSession);
    const replacement = session(account.id, { createdAt: T0 + 2000 });
    const again = { ...changed, passwordHash: "$argon2id$new-2", updatedAt: T0 + 2000 };
    expect(await stores.accounts.changePassword(account.id, "$argon2id$new-2", T0 + 2000, { endSessions: { replaceWith: replacement } })).toEqual({ user: again, sessionsEnded: 2 });
    expect(await stores.sessions.listOfUser(account.id)).toEqual([replacement]);
    expect(await stores.sessions.findByTokenHash(replacement.tokenHash)).toEqual({ session: replacement, user: again });

    // The admin CLI's set-password: every session ends, none replaces them.
    const third = { ...again, passwordHash: "$argon2id$new-3", updatedAt: T0 + 3000 };
    expect(await stores.accounts.changePassword(account.id, "$argon2id$new-3", T0 + 3000, { endSessions: {} })).toEqual({ user: third, sessionsEnded: 1 });
    expect(await (await peer()).sessions.listOfUser(account.id)).toEqual([]);
    expect(await stores.accounts.findById(account.id)).toEqual(third);
    expect(await stores.sessions.findByTokenHash(othersSession.tokenHash)).toBeDefined();
    expect(await stores.accounts.changePassword("no-such-user", "$argon2id$x", T0, { endSessions: { replaceWith: session("no-such-user") } })).toBeUndefined();
    expect(await stores.accounts.changePassword("no-such-user", "$argon2id$x", T0, { endSessions: {} })).toBeUndefined();
  },

  "changePassword while the account still has the verified hash: changed; with a stale one (changed meanwhile): nothing changes, no session ends": async ({ stores, peer }) => {
    const account = user();
    const signedIn = session(account.id);
    await stores.accounts.insert(account, signedIn);
    // The operator's reset commits between a change-password's check (against PASSWORD_HASH) and its write.
    const reset = { ...account, passwordHash: "$argon2id$operator", updatedAt: T0 + 1000 };
    expect(await stores.accounts.changePassword(account.id, "$argon2id$operator", T0 + 1000)).toEqual({ user: reset, sessionsEnded: 0 });
    const replacement = session(account.id, { createdAt: T0 + 2000 });
    const stale = { whilePasswordHash: PASSWORD_HASH };
    expect(await stores.accounts.changePassword(account.id, "$argon2id$attacker", T0 + 2000, { ...stale, endSessions: { replaceWith: replacement } })).toBeUndefined();
    expect(await stores.accounts.changePassword(account.id, "$argon2id$attacker", T0 + 2000, stale)).toBeUndefined();
    expect(await (await peer()).accounts.findById(account.id)).toEqual(reset);
    expect(await stores.sessions.listOfUser(account.id)).toEqual([signedIn]);
    // Against the hash it has: changed, sessions ended as asked.
    const changed = { ...reset, passwordHash: "$argon2id$owner", updatedAt: T0 + 3000 };
    const current = { whilePasswordHash: "$argon2id$operator", endSessions: { replaceWith: replacement } };
    expect(await stores.accounts.changePassword(account.id, "$argon2id$owner", T0 + 3000, current)).toEqual({ user: changed, sessionsEnded: 1 });
    expect(await stores.sessions.listOfUser(account.id)).toEqual([replacement]);
  },

  "delete while the account still has the verified hash: deleted; with a stale one (changed meanwhile): nothing of it goes": async ({ stores, peer }) => {
    const account = user();
    const signedIn = session(account.id);
    await stores.accounts.insert(account, signedIn);
    const key = apiKey(account.id);
    await stores.keys.insertWithinLimit(key, 100);
    await stores.usage.add([{ keyId: key.id, hour: T0, allowed: 1, refused: 0 }]);
    const reset = (await stores.accounts.changePassword(account.id, "$argon2id$operator", T0 + 1000))!.user;
    expect(await stores.accounts.delete(account.id, T0 + 2000, { whilePasswordHash: PASSWORD_HASH })).toBeUndefined();
    const other = await peer();
    expect(await other.accounts.findById(account.id)).toEqual(reset);
    expect(await other.sessions.findByTokenHash(signedIn.tokenHash)).toBeDefined();
    expect(await other.keys.findActiveByHash(key.keyHash)).toEqual(key);
    expect(await other.usage.hours(key.id, 0)).toEqual([{ hour: T0, allowed: 1, refused: 0 }]);
    expect(await stores.accounts.delete(account.id, T0 + 3000, { whilePasswordHash: "$argon2id$operator" })).toEqual({ keys: [{ id: key.id, keyHash: key.keyHash }] });
    expect(await other.accounts.findById(account.id)).toBeUndefined();
  },

  "sign-ins under the old hash racing changePassword with endSessions: no session of theirs outlives it": async ({ stores, parallel }) => {
    const handles = await parallel(8);
    const accounts = Array.from({ length: 12 }, () => user());
    for (const account of accounts) await stores.accounts.insert(account);
    // Handle 0 changes the password while the others store sign-ins' sessions verified against the old hash.
    const signIns = await race(handles, accounts, async (h, account, i): Promise<Session | undefined> => {
      if (i === 0) {
        expect(await h.accounts.changePassword(account.id, `$argon2id$changed-${account.id}`, T0 + 1000, { endSessions: {} })).toBeDefined();
        return undefined;
      }
      const signIn = session(account.id);
      await h.sessions.insert(signIn, SIGNED_IN);
      return signIn;
    });
    for (const [n, account] of accounts.entries()) {
      expect(await stores.sessions.listOfUser(account.id)).toEqual([]);
      for (const signIn of signIns[n]!) if (signIn) expect(await stores.sessions.findByTokenHash(signIn.tokenHash)).toBeUndefined();
    }
  },

  "delete removes the account, its sessions, all its keys and their usage, nothing of another; the e-mail is free again": async ({ stores, peer }) => {
    const [doomed, kept] = [user(), user()];
    const doomedSession = session(doomed.id);
    const keptSession = session(kept.id);
    await stores.accounts.insert(doomed, doomedSession);
    await stores.accounts.insert(kept, keptSession);
    const active = apiKey(doomed.id);
    const revoked = apiKey(doomed.id);
    const keptKey = apiKey(kept.id);
    for (const key of [active, revoked, keptKey]) await stores.keys.insertWithinLimit(key, 100);
    await stores.keys.revoke(doomed.id, revoked.id, T0);
    await stores.usage.add([active, revoked, keptKey].map((key) => ({ keyId: key.id, hour: T0, allowed: 3, refused: 1 })));

    const deleted = await stores.accounts.delete(doomed.id, T0);
    expect(deleted?.keys.map((key) => key.keyHash).sort()).toEqual([active.keyHash, revoked.keyHash].sort());
    expect(deleted?.keys.map((key) => key.id).sort()).toEqual([active.id, revoked.id].sort());
    const other = await peer();
    expect(await other.accounts.findByEmail(doomed.email)).toBeUndefined();
    expect(await other.sessions.findByTokenHash(doomedSession.tokenHash)).toBeUndefined();
    expect(await other.sessions.listOfUser(doomed.id)).toEqual([]);
    expect(await other.keys.findActiveByHash(active.keyHash)).toBeUndefined();
    expect(await other.usage.hours(active.id, 0)).toEqual([]);
    expect(await other.usage.hours(revoked.id, 0)).toEqual([]);
    // Nothing of the other account went.
    expect(await other.sessions.findByTokenHash(keptSession.tokenHash)).toBeDefined();
    expect(await other.keys.findActiveByHash(keptKey.keyHash)).toEqual(keptKey);
    expect(await other.usage.hours(keptKey.id, 0)).toEqual([{ hour: T0, allowed: 3, refused: 1 }]);
    // The e-mail signs up again, as a new account; deleting twice finds nothing.
    const again = user({ email: doomed.email });
    expect(await stores.accounts.insert(again)).toEqual(again);
    expect(await stores.accounts.delete(doomed.id, T0)).toBeUndefined();
    expect(await stores.accounts.delete("no-such-user", T0)).toEqual(undefined);
  },

  "an account without keys is deleted as well": async ({ stores }) => {
    const account = user();
    await stores.accounts.insert(account);
    expect(await stores.accounts.delete(account.id, T0)).toEqual({ keys: [] });
    expect(await stores.accounts.findByEmail(account.email)).toBeUndefined();
  },
} satisfies Record<string, Check<Stores>>;

export function accountStoreContract(backend: ContractBackend): void {
  registerChecks("AccountStore", backend, accountStoreChecks);
}
