import { describe, test } from "bun:test";
import type { StateStores } from "../../src/app/state/state-stores";

/**
 * A backend as the store contract suites see it (test/contracts/index.ts): SQLite in a data directory
 * today, PostgreSQL or Redis once they exist. A backend passes by adding a factory, never by a suite of
 * its own.
 */
export interface ContractBackend {
  name: string;
  /** A fresh, empty state, for one test. */
  open(): Promise<BackendUnderTest>;
  /** Releases what the factory keeps from one state to the next (threads, a server); after the last test. */
  dispose?(): Promise<void>;
  /**
   * How the backend's `keyRevocations` reach other processes: "announced" (the default), `takeRevoked`
   * reports them, as SQLite's memory-mapped epoch does; "none", no signal at all, and the key cache's
   * one-second trust is the bound (keys/active-keys.ts): PostgreSQL without Redis.
   */
  revocationSignal?: "announced" | "none";
}

/** The handles a check works with; `S` narrows them to the stores one contract uses. */
interface Handles<S = StateStores> {
  stores: S;
  /** Another handle on the same state, as another process sees it; answers in this thread. */
  peer(): Promise<S>;
  /** `n` handles on the same state that truly run at the same time (own threads or connections). */
  parallel(n: number): Promise<S[]>;
}

interface BackendUnderTest extends Handles {
  /** Closes every handle it gave out and removes the state. */
  close(): Promise<void>;
}

/**
 * What a check of one contract may touch: just those stores, so that a check can also be run against a
 * stand-in (test/app/store-contracts.test.ts shows a broken one failing).
 */
export type Under<K extends keyof StateStores> = Handles<Pick<StateStores, K>>;
export type Check<K extends keyof StateStores> = (under: Under<K>) => Promise<void>;

/** One test per check, each on its own fresh state, so no check depends on what another left behind. */
export function registerChecks<K extends keyof StateStores>(title: string, backend: ContractBackend, checks: Record<string, Check<K>>): void {
  describe(`${title} (${backend.name})`, () => {
    for (const [name, check] of Object.entries(checks)) {
      test(name, async () => {
        const under = await backend.open();
        try {
          await check(under);
        } finally {
          await under.close();
        }
      });
    }
  });
}

/** Calls `f` on every handle at once and waits for all the answers. */
export const onEach = <S, T>(handles: S[], f: (handle: S, index: number) => T | Promise<T>): Promise<Awaited<T>[]> =>
  Promise.all(handles.map(async (handle, index) => await f(handle, index)));

/**
 * One collision per item: every handle makes its call for the item at once, and the next item starts when
 * all have answered (left to run freely the handles drift apart, and then seldom meet on one item). One
 * collision may happen to fall apart in time; a few dozen do not all. Answers: `[item][handle]`.
 */
export async function race<S, I, T>(handles: S[], items: readonly I[], f: (handle: S, item: I, index: number) => T | Promise<T>): Promise<Awaited<T>[][]> {
  const answers: Awaited<T>[][] = [];
  for (const item of items) answers.push(await onEach(handles, (handle, index) => f(handle, item, index)));
  return answers;
}

/** `n` distinct items named after `label`. */
export const items = (label: string, n: number) => Array.from({ length: n }, (_, i) => `${label}-${i}`);
