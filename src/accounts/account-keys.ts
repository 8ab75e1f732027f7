import type { MaybePromise } from "../platform/maybe-promise";

/**
 * What an account's ban or deletion does to its API keys, which the keys capability keeps (keys/ refers to
 * accounts, not the other way): accounts see them only as this, filled in src/app/app.ts from
 * keys/active-keys.ts and keys/service.ts (and by the CLI, whose ActiveKeys is one).
 */
export interface AccountKeys {
  /** Keys deleted from the store with their account: every process drops them, as for a revocation. */
  dropDeleted(keyHashes: readonly string[]): MaybePromise<void>;
  /** For an account just disabled: every process drops its keys and asks the store, which refuses them. How many. */
  forgetAccount(userId: string, now: number): Promise<number>;
}

/** Beside the keys themselves, what a deleted account's keys leave to forget, and how soon they are refused. */
export interface DeletedAccountKeys extends AccountKeys {
  /** The rate-limit buckets of the account's key issues and of one key's use. */
  issueBucket(userId: string): string;
  useBucket(keyId: string): string;
  /** When every process refuses a deleted account's keys, in words, for the document (keys/active-keys.ts). */
  readonly refusedWhen: string;
}
