import { expect } from "bun:test";
import { type Check, type ContractBackend, onEach, registerChecks } from "./backend";
import { user } from "./fixtures";

type Stores = "ping" | "probeWrite" | "accounts" | "close";

const healthChecks = {
  "ping and probeWrite resolve on a healthy state, from every handle": async ({ stores, peer, parallel }) => {
    await stores.ping();
    await stores.probeWrite();
    const other = await peer();
    await other.ping();
    await other.probeWrite();
    await onEach(await parallel(2), async (h) => {
      await h.ping();
      await h.probeWrite();
    });
  },

  "closing one handle leaves the others working": async ({ stores, peer }) => {
    const account = user();
    await stores.accounts.insert(account);
    const other = await peer();
    await other.close();
    await stores.ping();
    await stores.probeWrite();
    expect(await stores.accounts.findByEmail(account.email)).toEqual(account);
  },
} satisfies Record<string, Check<Stores>>;

export function healthContract(backend: ContractBackend): void {
  registerChecks("StateStores health", backend, healthChecks);
}
