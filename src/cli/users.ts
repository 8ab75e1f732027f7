import { checkNewPassword } from "../accounts/service";
import { disableAccount, enableAccount, setAccountPassword } from "../accounts/admin";
import type { User } from "../accounts/store";
import { systemClock } from "../platform/clock";
import { UsageError } from "../platform/config/args";
import type { Config } from "../platform/config/config";
import type { StateStores } from "../app/state/state-stores";
import { ApiError } from "../platform/http/errors";
import type { AdminUser } from "./admin-model";
import { accountOf, emailArgument, iso, print, shortTime, table, withAdminState } from "./admin-state";
import { readPassword } from "./read-password";

/** `foodapi users ...`: the admin commands over accounts (design §10). */
export async function usersCommand(positionals: readonly string[], flags: ReadonlyMap<string, string>, config: Config): Promise<number> {
  const [sub, email] = positionals;
  const json = flags.has("json");
  if (sub === "list") {
    if (email !== undefined) throw new UsageError(`unexpected argument '${email}' for 'foodapi users list'`);
    return withAdminState(config, "users list", async ({ stores }) => {
      const users = await adminUsers(stores, await stores.accounts.list());
      print(json, { items: users }, () =>
        users.length === 0
          ? "no accounts\n"
          : table(
              ["EMAIL", "NAME", "STATUS", "PASSWORD", "KEYS", "CREATED", "ID"],
              users.map((u) => [u.email, u.name, u.disabledAt ? "disabled" : "active", u.hasPassword ? "yes" : "no", String(u.activeKeys), shortTime(Date.parse(u.createdAt)), u.id]),
            ),
      );
      return 0;
    });
  }
  if (sub !== "disable" && sub !== "enable" && sub !== "set-password") {
    throw new UsageError(sub === undefined ? "'foodapi users' needs a subcommand: list, disable, enable or set-password" : `unknown subcommand 'users ${sub}'; see 'foodapi users --help'`);
  }
  if (email === undefined) throw new UsageError(`'foodapi users ${sub}' needs an EMAIL`);
  const address = emailArgument(email);
  // Read and checked before the state is opened: a refused password changes nothing.
  const password = sub === "set-password" ? await newPassword(address) : undefined;

  return withAdminState(config, `users ${sub}`, async ({ stores, keys }) => {
    const account = await accountOf(stores, address);
    const now = systemClock();
    const deps = { accounts: stores.accounts, sessions: stores.sessions, limits: stores.limits, keys };
    const wasDisabled = account.disabledAt !== null;
    let changed: User;
    let sessionsEnded = 0;
    let human: (user: AdminUser) => string;
    if (sub === "disable") {
      const result = await disableAccount(deps, account, now);
      changed = result.user;
      sessionsEnded = result.sessionsEnded;
      human = () =>
        `${wasDisabled ? `${address} was disabled already (since ${iso(account.disabledAt!)})` : `disabled ${address}`}: ` +
        `${count(sessionsEnded, "session")} ended; ${count(result.keysRefused, "active key")} refused (401) and sign-in refused (403 BANNED_USER) until 'foodapi users enable ${address}'\n`;
    } else if (sub === "enable") {
      changed = await enableAccount(deps, account, now);
      human = (u) => `${wasDisabled ? `enabled ${address}` : `${address} was enabled already`}: it can sign in, and its ${count(u.activeKeys, "active key")} work\n`;
    } else {
      const result = await setAccountPassword(deps, account, password!, now);
      changed = result.user;
      sessionsEnded = result.sessionsEnded;
      human = () => `set the password of ${address}; ${count(sessionsEnded, "session")} ended${changed.disabledAt !== null ? " (the account is still disabled)" : ""}\n`;
    }
    const [user] = await adminUsers(stores, [changed]);
    print(json, { user, sessionsEnded }, () => human(user!));
    return 0;
  });
}

async function newPassword(email: string): Promise<string> {
  const password = await readPassword(`new password for ${email}: `);
  try {
    checkNewPassword(password);
  } catch (error) {
    // The sign-up rules' own words (PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG).
    if (error instanceof ApiError) throw new UsageError(`password refused: ${error.message}`);
    throw error;
  }
  return password;
}

async function adminUsers(stores: StateStores, users: readonly User[]): Promise<AdminUser[]> {
  const activeKeys = new Map<string, number>();
  // One listing of the active keys, counted here, rather than a query per account.
  for (const key of await stores.keys.listAllActive()) activeKeys.set(key.userId, (activeKeys.get(key.userId) ?? 0) + 1);
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
    disabledAt: user.disabledAt === null ? null : iso(user.disabledAt),
    hasPassword: user.passwordHash !== null,
    activeKeys: activeKeys.get(user.id) ?? 0,
  }));
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
