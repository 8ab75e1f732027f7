import { expect } from "bun:test";
import { type Check, type ContractBackend, items, race, registerChecks } from "./backend";
import { session, user } from "./fixtures";

type Stores = "accounts" | "sessions";

export const accountStoreChecks = {
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
} satisfies Record<string, Check<Stores>>;

export function accountStoreContract(backend: ContractBackend): void {
  registerChecks("AccountStore", backend, accountStoreChecks);
}
