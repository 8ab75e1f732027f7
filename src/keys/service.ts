import type { Clock } from "../platform/clock";
import { base58Length, constantTimeEqual, newId, randomBase58, sha256Hex } from "../platform/security/tokens";
import { isPromise, type MaybePromise } from "../platform/maybe-promise";
import type { ActiveKeys } from "./active-keys";
import type { ApiKey, KeyRefusal, KeyStore } from "./store";

const KEY_PREFIX = "fnk_";
/** 24 random bytes: 192 bits, well above the 128 the contract asks for. */
const KEY_SECRET_BYTES = 24;
const KEY_SECRET_LENGTH = base58Length(KEY_SECRET_BYTES);
/** `fnk_` and 8 characters: enough to tell keys apart in a list, far too little to guess the rest. */
const VISIBLE_PREFIX_LENGTH = 12;
const LAST_USED_RESOLUTION_MS = 60_000;

function generateKey(): { key: string; keyHash: string; keyPrefix: string } {
  const key = KEY_PREFIX + randomBase58(KEY_SECRET_BYTES);
  return { key, keyHash: sha256Hex(key), keyPrefix: key.slice(0, VISIBLE_PREFIX_LENGTH) };
}

export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 25;

/** The rate limiter's buckets of a key's requests and of an account's key issuing (forgotten with the account). */
export const keyUseBucket = (keyId: string) => `key:${keyId}`;
export const keyIssueBucket = (userId: string) => `key-issue:${userId}`;
export const KEY_NAME_MAX_LENGTH = 64;

export type IssueResult = { ok: true; key: ApiKey & { key: string } } | { ok: false; reason: KeyRefusal };

/** Issues a key: the returned `key` is the only copy of the plaintext there will ever be. */
export async function issueKey(store: KeyStore, clock: Clock, userId: string, name: string): Promise<IssueResult> {
  const { key, keyHash, keyPrefix } = generateKey();
  const record = await store.insertWithinLimit(
    { id: newId("key"), userId, name, keyPrefix, keyHash, tier: "free", createdAt: clock(), lastUsedAt: null, revokedAt: null },
    MAX_ACTIVE_KEYS_PER_ACCOUNT,
  );
  return typeof record === "string" ? { ok: false, reason: record } : { ok: true, key: { ...record, key } };
}

export type KeyCheck =
  | { ok: true; key: ApiKey }
  | { ok: false; reason: "MALFORMED" | "NOT_FOUND" };

/** Looks a presented key up by its hash. Revoked keys are not found: revocation takes effect at once. */
export function verifyKey(keys: ActiveKeys, clock: Clock, presented: string): MaybePromise<KeyCheck> {
  if (!presented.startsWith(KEY_PREFIX) || presented.length !== KEY_PREFIX.length + KEY_SECRET_LENGTH) {
    return { ok: false, reason: "MALFORMED" };
  }
  const keyHash = sha256Hex(presented);
  const key = keys.find(keyHash);
  return isPromise(key) ? key.then((found) => checkFound(keys, clock, keyHash, found)) : checkFound(keys, clock, keyHash, key);
}

function checkFound(keys: ActiveKeys, clock: Clock, keyHash: string, key: ApiKey | undefined): MaybePromise<KeyCheck> {
  // The lookup is by hash already; the constant-time check keeps the comparison of secret-derived
  // values free of early exits should the lookup ever become a prefix scan.
  if (!key || !constantTimeEqual(key.keyHash, keyHash)) return { ok: false, reason: "NOT_FOUND" };
  const found: KeyCheck = { ok: true, key };
  // lastUsedAt is coarse by contract: written at most once a minute per key.
  const touched = keys.touch(key.id, clock(), LAST_USED_RESOLUTION_MS);
  return isPromise(touched) ? touched.then(() => found) : found;
}
