import { t } from "elysia";

/**
 * What the admin commands print with `--json`: stable shapes for scripts, declared once (the README shows
 * them, the tests check the output against them). Times are ISO 8601 strings, as in the HTTP API.
 */

const time = t.String({ format: "date-time" });

export const AdminUser = t.Object({
  id: t.String(),
  email: t.String(),
  name: t.String(),
  createdAt: time,
  updatedAt: time,
  /** null while the account is enabled. */
  disabledAt: t.Union([time, t.Null()]),
  /** false for an account `keys create` made, until `users set-password` gives it one. */
  hasPassword: t.Boolean(),
  activeKeys: t.Integer({ minimum: 0 }),
});

export const AdminKey = t.Object({
  id: t.String(),
  userId: t.String(),
  email: t.String(),
  name: t.String(),
  keyPrefix: t.String(),
  tier: t.Literal("free"),
  createdAt: time,
  lastUsedAt: t.Union([time, t.Null()]),
});

/** `users list`. */
export const UserListOutput = t.Object({ items: t.Array(AdminUser) });
/** `users disable`, `users enable`, `users set-password`: the account as it now is, and the sessions that ended. */
export const UserChangeOutput = t.Object({ user: AdminUser, sessionsEnded: t.Integer({ minimum: 0 }) });
/** `keys list`. */
export const KeyListOutput = t.Object({ items: t.Array(AdminKey) });
/** `keys revoke`. */
export const RevokedKeyOutput = t.Object({ key: t.Object({ ...AdminKey.properties, revokedAt: time }) });
/** `keys create --json`: the plaintext key is in `key`, shown this once. */
export const CreatedKeyOutput = t.Object({ ...AdminKey.properties, key: t.String() });
/** `backup`. */
export const BackupOutput = t.Object({ file: t.String(), bytes: t.Integer({ minimum: 0 }), schemaVersion: t.Integer({ minimum: 1 }) });
/** `restore`: where the state was, and where the state it replaced was put (null: there was none). */
export const RestoreOutput = t.Object({
  stateFile: t.String(),
  restoredFrom: t.String(),
  replacedStateKeptAt: t.Union([t.String(), t.Null()]),
  schemaVersion: t.Integer({ minimum: 1 }),
});

export type AdminUser = typeof AdminUser.static;
export type AdminKey = typeof AdminKey.static;
