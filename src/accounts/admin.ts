import type { LimitStore } from "../limits/store";
import type { AccountKeys } from "./account-keys";
import { passwordFailureBuckets } from "./password-check";
import { hashPassword } from "./passwords";
import type { AccountStore, SessionStore, User } from "./store";

/**
 * What the operator does to an account (`foodapi users ...`, design §10), as plain functions over the
 * stores: each takes effect on every serving process's next request.
 */
/** No session has the empty id: "every session but this one" is every session. */
const NO_SESSION = "";

export interface AccountAdminDeps {
  accounts: AccountStore;
  sessions: SessionStore;
  /** The key cache's revocation path, so that every process drops the account's cached keys. */
  keys: Pick<AccountKeys, "forgetAccount">;
}

/**
 * Disables the account: marked first, so that no lookup after this finds it enabled (sign-in answers 403
 * BANNED_USER, a session racing this is refused by validateSession), then its sessions are deleted and
 * every process is told to forget its keys, which the store no longer finds.
 */
export async function disableAccount(deps: AccountAdminDeps, user: User, now: number): Promise<{ user: User; sessionsEnded: number; keysRefused: number }> {
  const disabled = (await deps.accounts.setDisabled(user.id, true, now)) ?? user;
  const sessionsEnded = await deps.sessions.deleteOthersOfUser(user.id, NO_SESSION);
  const keysRefused = await deps.keys.forgetAccount(user.id, now);
  return { user: disabled, sessionsEnded, keysRefused };
}

/** Enables the account again: its keys are found again (no cache holds a refusal) and it can sign in. */
export async function enableAccount(deps: Pick<AccountAdminDeps, "accounts">, user: User, now: number): Promise<User> {
  return (await deps.accounts.setDisabled(user.id, false, now)) ?? user;
}

/**
 * Sets a password (checked by the caller against the sign-up rules) and ends every session of the account,
 * in one transaction: no moment, and no failure half-way, leaves the old sessions working with the new
 * password. The account's wrong-password counts (sign-in's and its sessions') are forgotten: the operator's
 * reset is the way out of a lockout (accounts/password-check.ts), and the guesses counted were against a
 * password that is gone.
 */
export async function setAccountPassword(
  deps: Pick<AccountAdminDeps, "accounts"> & { limits: Pick<LimitStore, "forget"> },
  user: User,
  password: string,
  now: number,
): Promise<{ user: User; sessionsEnded: number }> {
  const changed = (await deps.accounts.changePassword(user.id, await hashPassword(password), now, { endSessions: {} })) ?? { user, sessionsEnded: 0 };
  await deps.limits.forget(passwordFailureBuckets(user));
  return changed;
}
