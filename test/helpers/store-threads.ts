import type { StateStores } from "../../src/app/state/state-stores";

/**
 * Handles on one state that truly run at the same time, for the store contracts' concurrency checks
 * (test/contracts/): each is a Worker with its own connection (see sqlite-store-thread.ts), seen from here
 * as `StateStores` whose every method answers with a promise, as a networked backend's would.
 *
 * Workers are kept in a pool from one test to the next (starting one costs a tenth of a second or more),
 * each opening and closing the state it is lent for; `terminate` ends them all.
 */

type StoreRequestBody =
  | { op: "open"; dataDir: string }
  | { op: "close" }
  | { op: "call"; store: keyof StateStores | null; method: string; args: unknown[] };
export type StoreRequest = StoreRequestBody & { id: number };
export type StoreReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; name: string; message: string };

type StoreName = "accounts" | "sessions" | "keys" | "keyRevocations" | "limits" | "trial" | "usage";

/** Every method of every store: one added to a contract and missing here fails the type check. */
const METHODS = {
  accounts: { findByEmail: 1, findById: 1, insert: 1, count: 1, rename: 1, changePassword: 1, delete: 1, list: 1, setDisabled: 1 },
  sessions: { insert: 1, findByTokenHash: 1, extend: 1, delete: 1, listOfUser: 1, deleteOfUser: 1, deleteOthersOfUser: 1, sweepExpired: 1 },
  keys: { insertWithinLimit: 1, findActiveByHash: 1, listActive: 1, revoke: 1, rename: 1, touch: 1, sweep: 1, countActive: 1, findById: 1, listAllActive: 1, forgetAccountKeys: 1 },
  keyRevocations: { onRevoked: 1, takeRevoked: 1 },
  limits: { grant: 1, release: 1, forget: 1, sweep: 1 },
  usage: { add: 1, hours: 1, sweep: 1 },
  trial: { secret: 1, markChallengeUsed: 1, consumeTrialRequest: 1, trialRequestsUsed: 1, sweepExpired: 1 },
} satisfies { [K in StoreName]: Record<keyof StateStores[K], 1> };

class StoreThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 0;
  private readonly closed: Promise<void>;

  constructor(entry: URL) {
    this.worker = new Worker(entry.href);
    this.closed = new Promise((resolve) => this.worker.addEventListener("close", () => resolve()));
    this.worker.onmessage = ({ data }: MessageEvent<StoreReply>) => {
      const waiting = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (data.ok) waiting?.resolve(data.value);
      else waiting?.reject(Object.assign(new Error(data.message), { name: data.name }));
    };
    this.worker.onerror = (event) => this.failAll(new Error(`store thread failed: ${event.message}`));
  }

  request(body: StoreRequestBody): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id });
    });
  }

  async terminate(): Promise<void> {
    this.worker.terminate();
    this.failAll(new Error("store thread terminated"));
    // Bounded: the close event is what says the thread is gone, but a test run must not hang on it.
    await Promise.race([this.closed, Bun.sleep(2000)]);
  }

  private failAll(error: Error): void {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}

/** The handle a thread is seen as. */
function remoteStores(thread: StoreThread, close: () => Promise<void>): StateStores {
  const call = (store: StoreName | null, method: string) => (...args: unknown[]) => thread.request({ op: "call", store, method, args });
  const remote = (store: StoreName) =>
    Object.fromEntries(
      Object.keys(METHODS[store]).map((method) => {
        // A function cannot be posted: the value is generated here, and used there only if the secret is new.
        if (store === "trial" && method === "secret") return [method, (name: string, generate: () => string) => thread.request({ op: "call", store, method, args: [name, generate()] })];
        if (store === "keyRevocations" && method === "takeRevoked") {
          return [method, () => {
            throw new Error("takeRevoked is a memory read in the handle's own process and cannot answer from another thread: use peer()");
          }];
        }
        return [method, call(store, method)];
      }),
    );
  return {
    accounts: remote("accounts"),
    sessions: remote("sessions"),
    keys: remote("keys"),
    keyRevocations: remote("keyRevocations"),
    limits: remote("limits"),
    trial: remote("trial"),
    usage: remote("usage"),
    ping: call(null, "ping"),
    probeWrite: call(null, "probeWrite"),
    close,
  } as unknown as StateStores;
}

export interface StoreThreadPool {
  /** `n` threads, each with its own connection opened on `dataDir`; `release` closes them and returns them to the pool. */
  lend(n: number, dataDir: string): Promise<{ handles: StateStores[]; release(): Promise<void> }>;
  /** Ends every thread; after the last test. */
  terminate(): Promise<void>;
}

export function storeThreadPool(entry: URL): StoreThreadPool {
  const all: StoreThread[] = [];
  const idle: StoreThread[] = [];
  return {
    async lend(n, dataDir) {
      const threads = Array.from({ length: n }, () => idle.pop() ?? all[all.push(new StoreThread(entry)) - 1]!);
      const lent = new Set(threads);
      const giveBack = async (thread: StoreThread) => {
        if (!lent.delete(thread)) return;
        try {
          await thread.request({ op: "close" });
          idle.push(thread);
        } catch {
          // A thread that cannot close its connection is not lent again (terminate still ends it).
        }
      };
      try {
        await Promise.all(threads.map((thread) => thread.request({ op: "open", dataDir })));
      } catch (error) {
        await Promise.all(threads.map(giveBack));
        throw error;
      }
      return {
        handles: threads.map((thread) => remoteStores(thread, () => giveBack(thread))),
        release: async () => void (await Promise.all(threads.map(giveBack))),
      };
    },

    async terminate() {
      idle.length = 0;
      await Promise.all(all.splice(0).map((thread) => thread.terminate()));
    },
  };
}
