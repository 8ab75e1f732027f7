import { openSqliteStateDb, sqliteStores } from "../../src/app/state/sqlite-state";
import type { StateStores } from "../../src/app/state/state-stores";
import type { StoreReply, StoreRequest } from "./store-threads";

/**
 * A Worker holding its own connection to a SQLite state (test/helpers/store-threads.ts): it runs the store
 * calls posted to it one after another, while its siblings run theirs in their own threads.
 */
declare const self: Worker;

let stores: StateStores | undefined;

async function run(request: StoreRequest): Promise<unknown> {
  switch (request.op) {
    case "open":
      stores = sqliteStores(openSqliteStateDb(request.dataDir));
      return;
    case "close":
      await stores?.close();
      stores = undefined;
      return;
    case "call": {
      if (!stores) throw new Error("no state is open in this thread");
      const { store, method, args } = request;
      // A function cannot be posted: the parent sends the value it generated.
      if (store === "trial" && method === "secret") return stores.trial.secret(args[0] as string, () => args[1] as string);
      const target = (store ? stores[store] : stores) as unknown as Record<string, (...a: unknown[]) => unknown>;
      return target[method]!(...args);
    }
  }
}

self.onmessage = async ({ data }: MessageEvent<StoreRequest>) => {
  let reply: StoreReply;
  try {
    reply = { id: data.id, ok: true, value: await run(data) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    reply = { id: data.id, ok: false, name, message };
  }
  self.postMessage(reply);
};
