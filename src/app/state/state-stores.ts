import type { AccountStore, SessionStore } from "../../accounts/store";
import type { KeyRevocations, KeyStore } from "../../keys/store";
import type { LimitStore } from "../../limits/store";
import type { MaybePromise } from "../../platform/maybe-promise";
import type { TrialStore } from "../../trial/store";
import type { UsageStore } from "../../usage/store";

/**
 * Everything the service keeps besides the catalog, as one backend's stores: the app is built over this
 * and never sees a database. SQLite in the data directory (app/state/sqlite-state.ts) is the default.
 */
export interface StateStores {
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly keys: KeyStore;
  readonly keyRevocations: KeyRevocations;
  readonly limits: LimitStore;
  readonly trial: TrialStore;
  /** Requests per key per hour (statistics; usage/recorder.ts batches the writes). */
  readonly usage: UsageStore;
  /** Throws unless the state answers a read (for `/healthz`). */
  ping(): MaybePromise<void>;
  /** Throws unless the state takes a write (the storage health's probe; platform/storage/storage-health.ts). */
  probeWrite(): MaybePromise<void>;
  close(): MaybePromise<void>;
}
