import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteState, openSqliteStateDb, sqliteStores } from "../../src/app/state/sqlite-state";
import type { StateStores } from "../../src/app/state/state-stores";
import type { TrialStore } from "../../src/trial/store";
import { type ContractBackend, runStoreContracts } from "../contracts";
import type { Under } from "../contracts/backend";
import { trialStoreChecks } from "../contracts/trial-store";
import { storeThreadPool } from "../helpers/store-threads";

/**
 * The SQLite backend against every store contract. Another process's view is another connection on the
 * same data directory; handles that run at the same time are Workers, each with its own connection, so
 * that the write locks, busy waits and IMMEDIATE transactions are what keeps the guarantees, as between
 * the processes of `foodapi serve --workers`.
 */
const threads = storeThreadPool(new URL("../helpers/sqlite-store-thread.ts", import.meta.url));

const sqlite: ContractBackend = {
  name: "SQLite",
  async open() {
    const dataDir = mkdtempSync(join(tmpdir(), "foodapi-contracts-"));
    const stores = openSqliteState(dataDir);
    const peers: StateStores[] = [];
    const lent: Array<{ release(): Promise<void> }> = [];
    return {
      stores,
      async peer() {
        const peer = sqliteStores(openSqliteStateDb(dataDir));
        peers.push(peer);
        return peer;
      },
      async parallel(n) {
        const lease = await threads.lend(n, dataDir);
        lent.push(lease);
        return lease.handles;
      },
      async close() {
        await Promise.all(lent.map((lease) => lease.release()));
        // Closing a closed bun:sqlite database does nothing: a check may have closed a peer itself.
        for (const handle of [...peers, stores]) await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
  dispose: () => threads.terminate(),
};

runStoreContracts(sqlite);

/**
 * The suite can fail: the exact-quota check against a trial store in memory, once atomic and once
 * check-then-write (another request reads the count before this one writes it), as a backend that read
 * and then updated in two round trips would be.
 */
describe("the contract checks catch a broken store", () => {
  const exactQuota = trialStoreChecks["parallel requests with one token: exactly quota counted, each count 1..quota once"];

  function inMemory(checkThenWrite: boolean): Under<"trial"> {
    const used = new Map<string, number>();
    const trial: TrialStore = {
      secret: (_name, generate) => generate(),
      markChallengeUsed: () => true,
      sweepExpired: () => 0,
      trialRequestsUsed: (jti) => used.get(jti) ?? 0,
      async consumeTrialRequest(jti, quota) {
        const count = used.get(jti) ?? 0;
        if (count >= quota) return null;
        if (checkThenWrite) await Bun.sleep(0);
        used.set(jti, count + 1);
        return count + 1;
      },
    };
    const handle = { trial };
    return { stores: handle, peer: async () => handle, parallel: async (n) => Array.from({ length: n }, () => handle) };
  }

  test("an atomic consume passes", () => exactQuota(inMemory(false)));

  test("a check-then-write consume fails", async () => {
    await expect(exactQuota(inMemory(true))).rejects.toThrow(/expect\(received\)/);
  });
});
