import { afterAll } from "bun:test";
import { accountStoreContract } from "./account-store";
import type { ContractBackend } from "./backend";
import { healthContract } from "./health";
import { keyStoreContract } from "./key-store";
import { limitStoreContract } from "./limit-store";
import { sessionStoreContract } from "./session-store";
import { trialStoreContract } from "./trial-store";
import { usageStoreContract } from "./usage-store";

export type { ContractBackend } from "./backend";

/**
 * Every store contract (each capability's store.ts, and app/state/state-stores.ts) against one backend: a backend
 * is done when its factory passes this, and a new guarantee is added here once, for all of them.
 */
export function runStoreContracts(backend: ContractBackend): void {
  accountStoreContract(backend);
  sessionStoreContract(backend);
  keyStoreContract(backend);
  limitStoreContract(backend);
  trialStoreContract(backend);
  usageStoreContract(backend);
  healthContract(backend);
  afterAll(async () => {
    await backend.dispose?.();
  });
}
