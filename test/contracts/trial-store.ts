import { expect } from "bun:test";
import { TRIAL_EXPIRY_MARGIN_MS } from "../../src/trial/store";
import { type Check, type ContractBackend, items, race, registerChecks } from "./backend";
import { T0 } from "./fixtures";

type Stores = "trial";

const HOUR = 3600_000;

export const trialStoreChecks = {
  "a secret is generated once; later calls, from any handle, return it without using their own": async ({ stores, peer }) => {
    expect(await stores.trial.secret("signer", () => "first")).toBe("first");
    expect(await stores.trial.secret("signer", () => "second")).toBe("first");
    expect(await (await peer()).trial.secret("signer", () => "third")).toBe("first");
    expect(await stores.trial.secret("other", () => "its own")).toBe("its own");
    let generated = 0;
    expect(await stores.trial.secret("signer", () => `unused ${++generated}`)).toBe("first");
    expect(generated).toBe(0);
  },

  "parallel first calls for a secret all agree on one of the generated values": async ({ stores, parallel }) => {
    const names = items("secret", 25);
    const values = await race(await parallel(8), names, (h, name, i) => h.trial.secret(name, () => `${name} from ${i}`));
    for (const [n, name] of names.entries()) {
      expect(new Set(values[n]).size).toBe(1);
      expect(values[n]![0]).toMatch(new RegExp(`^${name} from [0-7]$`));
      expect(await stores.trial.secret(name, () => "late")).toBe(values[n]![0]!);
    }
  },

  "a challenge is redeemed once: true, then false from every handle": async ({ stores, peer }) => {
    expect(await stores.trial.markChallengeUsed("challenge-1", T0 + HOUR)).toBe(true);
    expect(await stores.trial.markChallengeUsed("challenge-1", T0 + HOUR)).toBe(false);
    expect(await (await peer()).trial.markChallengeUsed("challenge-1", T0 + 2 * HOUR)).toBe(false);
    expect(await stores.trial.markChallengeUsed("challenge-2", T0 + HOUR)).toBe(true);
  },

  "parallel redemptions of one challenge: exactly one true": async ({ parallel }) => {
    const results = await race(await parallel(8), items("challenge", 25), (h, id) => h.trial.markChallengeUsed(id, T0 + HOUR));
    for (const redeemed of results) expect(redeemed.filter((won) => won)).toHaveLength(1);
  },

  "a token's requests count 1 to quota, then null; tokens are apart": async ({ stores, peer }) => {
    const counts = [];
    for (let i = 0; i < 4; i++) counts.push(await stores.trial.consumeTrialRequest("jti-1", 3, T0 + HOUR));
    expect(counts).toEqual([1, 2, 3, null]);
    expect(await (await peer()).trial.consumeTrialRequest("jti-1", 3, T0 + HOUR)).toBeNull();
    expect(await stores.trial.consumeTrialRequest("jti-2", 3, T0 + HOUR)).toBe(1);
  },

  "n requests at once count all n or, when they do not all fit, none; every handle sees the count": async ({ stores, peer }) => {
    expect(await stores.trial.trialRequestsUsed("batch")).toBe(0);
    expect(await stores.trial.consumeTrialRequest("batch", 10, T0 + HOUR, 4)).toBe(4);
    expect(await (await peer()).trial.consumeTrialRequest("batch", 10, T0 + HOUR, 5)).toBe(9);
    // 2 do not fit in the 1 left: nothing counted, and the one left is still there.
    expect(await stores.trial.consumeTrialRequest("batch", 10, T0 + HOUR, 2)).toBeNull();
    expect(await (await peer()).trial.trialRequestsUsed("batch")).toBe(9);
    expect(await stores.trial.consumeTrialRequest("batch", 10, T0 + HOUR)).toBe(10);
    expect(await stores.trial.consumeTrialRequest("batch", 10, T0 + HOUR)).toBeNull();
    // More than the whole quota on a fresh token: nothing counted either.
    expect(await stores.trial.consumeTrialRequest("fresh", 3, T0 + HOUR, 4)).toBeNull();
    expect(await stores.trial.trialRequestsUsed("fresh")).toBe(0);
    expect(await stores.trial.consumeTrialRequest("fresh", 3, T0 + HOUR, 3)).toBe(3);
  },

  "parallel batches with one token never count past the quota, each all or nothing": async ({ parallel }) => {
    // 8 batches of 3 at once against a quota of 10: exactly three fit (9), whichever they are.
    const jtis = items("batch", 10);
    const counts = await race(await parallel(8), jtis, (h, jti) => h.trial.consumeTrialRequest(jti, 10, T0 + HOUR, 3));
    for (const perToken of counts) expect(perToken.filter((count): count is number => count !== null).sort((a, b) => a - b)).toEqual([3, 6, 9]);
  },

  "parallel requests with one token: exactly quota counted, each count 1..quota once": async ({ parallel }) => {
    // 8 at once against a quota of 5, then 8 more: the first collision is cut at the quota, the second finds it used up.
    const jtis = items("jti", 10);
    const handles = await parallel(8);
    const first = await race(handles, jtis, (h, jti) => h.trial.consumeTrialRequest(jti, 5, T0 + HOUR));
    const second = await race(handles, jtis, (h, jti) => h.trial.consumeTrialRequest(jti, 5, T0 + HOUR));
    for (const n of jtis.keys()) {
      expect(first[n]!.filter((count): count is number => count !== null).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
      expect(second[n]).toEqual(handles.map(() => null));
    }
  },

  "sweepExpired forgets usage and challenges expired for the margin only, at most batch of each a call, and counts them": async ({ stores }) => {
    // Swept at T0 + the margin: expired at T0 - i, they have been expired for longer; "live" has not.
    const sweptAt = T0 + TRIAL_EXPIRY_MARGIN_MS;
    for (const i of [1, 2, 3]) {
      await stores.trial.consumeTrialRequest(`old-${i}`, 5, T0 - i);
      await stores.trial.markChallengeUsed(`old-${i}`, T0 - i);
    }
    await stores.trial.consumeTrialRequest("live", 5, T0 + 1);
    await stores.trial.markChallengeUsed("live", T0 + 1);
    expect(await stores.trial.sweepExpired(sweptAt, 2)).toBe(4);
    expect(await stores.trial.sweepExpired(sweptAt, 2)).toBe(2);
    expect(await stores.trial.sweepExpired(sweptAt, 2)).toBe(0);
    // Forgotten: counted afresh, redeemable again. Kept: counting on, still a replay.
    expect(await stores.trial.consumeTrialRequest("old-1", 5, T0 + HOUR)).toBe(1);
    expect(await stores.trial.markChallengeUsed("old-1", T0 + HOUR)).toBe(true);
    expect(await stores.trial.consumeTrialRequest("live", 5, T0 + 1)).toBe(2);
    expect(await stores.trial.markChallengeUsed("live", T0 + 1)).toBe(false);
    // Expired for the margin at the very millisecond of expiresAt + margin.
    expect(await stores.trial.sweepExpired(sweptAt + 1, 10)).toBe(2);
  },

  "a record expired less than the margin ago survives the sweep (an instance whose clock is behind still takes it for live); past it, it goes": async ({ stores }) => {
    await stores.trial.consumeTrialRequest("token", 5, T0);
    await stores.trial.markChallengeUsed("challenge", T0);
    expect(await stores.trial.sweepExpired(T0, 10)).toBe(0);
    expect(await stores.trial.sweepExpired(T0 + TRIAL_EXPIRY_MARGIN_MS - 1, 10)).toBe(0);
    // Still counted, still a replay, for the instance behind.
    expect(await stores.trial.consumeTrialRequest("token", 5, T0)).toBe(2);
    expect(await stores.trial.markChallengeUsed("challenge", T0)).toBe(false);
    expect(await stores.trial.sweepExpired(T0 + TRIAL_EXPIRY_MARGIN_MS + 1, 10)).toBe(2);
    expect(await stores.trial.trialRequestsUsed("token")).toBe(0);
  },
} satisfies Record<string, Check<Stores>>;

export function trialStoreContract(backend: ContractBackend): void {
  registerChecks("TrialStore", backend, trialStoreChecks);
}
