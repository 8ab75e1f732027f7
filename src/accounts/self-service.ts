import type { Clock } from "../platform/clock";
import { apiError } from "./errors";
import type { DeletedAccountKeys } from "./account-keys";
import { parseName } from "../platform/security/text";
import { type ListedSession, USER_NAME_MAX_LENGTH } from "./model";
import { type PasswordCheckDeps, passwordFailureBuckets, sessionFailureBucket, verifyAccountPassword } from "./password-check";
import { hashPassword } from "./passwords";
import { checkNewPassword } from "./service";
import { newSession, type SessionClient, type ValidSession } from "./sessions";
import type { AccountStore, Session, SessionStore, User } from "./store";

/**
 * Account self-service (design §13) as plain functions over the stores: the routes
 * (self-service-routes.ts) only carry requests to them and answers back.
 */

/**
 * The signed-in user's password, or 400 INVALID_PASSWORD (Better Auth's answer; the session is not at
 * stake); counted against the account's failure limit for its sessions, apart from sign-in's
 * (password-check.ts; 429 past it). The hash it was verified against, for the write to be made only while
 * the account still has it.
 */
async function requirePassword(deps: PasswordCheckDeps, user: User, password: string): Promise<string> {
  const valid = await verifyAccountPassword(deps, sessionFailureBucket(user.id), user.passwordHash, password);
  if (!valid || !user.passwordHash) throw apiError("INVALID_PASSWORD");
  return user.passwordHash;
}

/** The account vanished between the session check and the write (deleted meanwhile): as if signed out. */
const gone = () => apiError("SIGN_IN_REQUIRED");

/**
 * The write found the account with another password than the one verified: changed in between (the
 * operator's `users set-password`, another session's change-password), and that change wins. The password
 * given is no longer the account's: 400 INVALID_PASSWORD, as a moment later. Not counted as a wrong
 * password: it was right when checked.
 */
const passwordChangedMeanwhile = () => apiError("INVALID_PASSWORD");

export interface PasswordChange {
  user: User;
  /** The fresh session's token when the other sessions were ended, for the cookie and the answer. */
  token: string | null;
  persistent: boolean;
}

export async function changePassword(
  deps: PasswordCheckDeps & { accounts: AccountStore; clock: Clock },
  account: ValidSession,
  body: { currentPassword: string; newPassword: string; revokeOtherSessions?: boolean },
  client: SessionClient,
): Promise<PasswordChange> {
  checkNewPassword(body.newPassword);
  const verifiedHash = await requirePassword(deps, account.user, body.currentPassword);
  const passwordHash = await hashPassword(body.newPassword);
  const persistent = account.session.persistent;
  // Ending the other sessions ends this one too, and starts a fresh one in the same transaction: a token
  // that may have leaked with the old password is worth nothing afterwards, whichever session held it.
  const fresh = body.revokeOtherSessions ? newSession(deps.clock, account.user.id, persistent, client) : undefined;
  const changed = await deps.accounts.changePassword(account.user.id, passwordHash, deps.clock(), {
    whilePasswordHash: verifiedHash,
    endSessions: fresh && { replaceWith: fresh.session },
  });
  if (!changed) throw (await deps.accounts.findById(account.user.id)) ? passwordChangedMeanwhile() : gone();
  return { user: changed.user, token: fresh?.token ?? null, persistent };
}

export async function renameUser(deps: { accounts: AccountStore; clock: Clock }, userId: string, body: { name?: string; email?: unknown }): Promise<User> {
  // Better Auth's own rule: changing the e-mail is a flow of its own (verification), not an update.
  if (body.email !== undefined) throw apiError("EMAIL_CAN_NOT_BE_UPDATED");
  if (body.name === undefined) throw apiError("VALIDATION_ERROR", "name", "is required");
  const checked = parseName(body.name, USER_NAME_MAX_LENGTH);
  if (!checked.ok) throw apiError("VALIDATION_ERROR", "name", checked.problem);
  const user = await deps.accounts.rename(userId, checked.name, deps.clock());
  if (!user) throw gone();
  return user;
}

/**
 * Deletes the account after checking its password: the account, its sessions, its keys and their usage in
 * one transaction (accounts/store.ts); then the keys are dropped from the caches (the revocation signal,
 * which reaches as far as `refusedWhen` says) and the rate limiter forgets the keys' and the account's
 * counters.
 */
export async function deleteAccount(
  deps: PasswordCheckDeps & { accounts: AccountStore; accountKeys: DeletedAccountKeys; clock: Clock },
  user: User,
  password: string,
): Promise<void> {
  const verifiedHash = await requirePassword(deps, user, password);
  const deleted = await deps.accounts.delete(user.id, deps.clock(), { whilePasswordHash: verifiedHash });
  if (!deleted) {
    // Still there: its password changed in between. Gone (deleted meanwhile): what was asked is done.
    if (await deps.accounts.findById(user.id)) throw passwordChangedMeanwhile();
    return;
  }
  const { accountKeys } = deps;
  await accountKeys.dropDeleted(deleted.keys.map((key) => key.keyHash));
  await deps.limiter.forget([accountKeys.issueBucket(user.id), ...passwordFailureBuckets(user), ...deleted.keys.map((key) => accountKeys.useBucket(key.id))]);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The account's live sessions, newest first, the caller's marked `current`. */
export async function listSessions(sessions: SessionStore, clock: Clock, account: ValidSession): Promise<ListedSession[]> {
  const now = clock();
  const live = (await sessions.listOfUser(account.user.id)).filter((session) => session.expiresAt > now);
  return live.map((session: Session) => ({
    id: session.id,
    createdAt: iso(session.createdAt),
    updatedAt: iso(session.updatedAt),
    expiresAt: iso(session.expiresAt),
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    current: session.id === account.session.id,
  }));
}

/** Ends one of the account's sessions by id; 404 SESSION_NOT_FOUND when it is unknown or another's. True when it was the caller's own. */
export async function revokeSession(sessions: SessionStore, account: ValidSession, body: { id?: string; token?: string }): Promise<boolean> {
  const id = body.id ?? body.token;
  if (id === undefined) throw apiError("VALIDATION_ERROR", "id", "is required");
  if (!(await sessions.deleteOfUser(account.user.id, id))) throw apiError("SESSION_NOT_FOUND");
  return id === account.session.id;
}
