import { findOrCreatePasswordlessAccount } from "../accounts/service";
import type { User } from "../accounts/store";
import { systemClock } from "../platform/clock";
import { UsageError } from "../platform/config/args";
import type { Config } from "../platform/config/config";
import { describeState } from "../app/state/open-state";
import { issueKey, KEY_NAME_MAX_LENGTH } from "../keys/service";
import type { ApiKey } from "../keys/store";
import { parseName } from "../platform/security/text";
import type { AdminKey } from "./admin-model";
import { accountOf, emailArgument, iso, NotFound, print, shortTime, table, withAdminState } from "./admin-state";
import { CannotStart } from "./errors";

/** Which flags each subcommand takes (the parser accepts the union), and how many words after it. */
const SHAPES: Record<string, { flags: readonly string[]; words: number; usage: string }> = {
  create: { flags: ["email", "name"], words: 0, usage: "foodapi keys create --email E --name N" },
  list: { flags: ["email"], words: 0, usage: "foodapi keys list [--email E]" },
  revoke: { flags: [], words: 1, usage: "foodapi keys revoke ID" },
};
/** Flags every subcommand takes: where the state is, and the output format. */
const COMMON_FLAGS = ["data-dir", "state-url", "redis-url", "json"];

/** `foodapi keys ...`: issue, list and revoke keys without the dashboard (design §8, §10). */
export async function keysCommand(positionals: readonly string[], flags: ReadonlyMap<string, string>, config: Config): Promise<number> {
  const [sub, ...words] = positionals;
  const shape = sub === undefined ? undefined : SHAPES[sub];
  if (!shape) throw new UsageError(`${sub === undefined ? "'foodapi keys' needs a subcommand" : `unknown subcommand 'keys ${sub}'`}: create, list or revoke; see 'foodapi keys --help'`);
  for (const flag of flags.keys()) {
    if (!shape.flags.includes(flag) && !COMMON_FLAGS.includes(flag)) throw new UsageError(`'foodapi keys ${sub}' takes no --${flag}; usage: ${shape.usage}`);
  }
  if (words.length !== shape.words) throw new UsageError(`usage: ${shape.usage}`);
  const json = flags.has("json");
  if (sub === "create") return createKey(flags, config, json);
  if (sub === "list") return listKeys(flags.has("email") ? emailArgument(flags.get("email"), "--email") : undefined, config, json);
  return revokeKey(words[0]!, config, json);
}

/** The plaintext key is the only line on stdout (or in the JSON document); everything else goes to stderr. */
async function createKey(flags: ReadonlyMap<string, string>, config: Config, json: boolean): Promise<number> {
  const email = emailArgument(flags.get("email"), "--email");
  const checked = parseName(flags.get("name") ?? "", KEY_NAME_MAX_LENGTH);
  if (!checked.ok) throw new UsageError(`--name ${checked.problem}`);
  return withAdminState(config, "keys create", async ({ stores }) => {
    const user = await findOrCreatePasswordlessAccount(stores.accounts, email, systemClock());
    // Its keys would be refused: issuing one would only mislead.
    if (user.disabledAt !== null) throw new CannotStart(`the account ${email} is disabled; enable it first ('foodapi users enable ${email}')`);
    const result = await issueKey(stores.keys, systemClock, user.id, checked.name);
    if (!result.ok) {
      console.error(
        result.reason === "ACCOUNT_NOT_FOUND"
          ? `foodapi: the account ${email} was deleted meanwhile; run the command again to create it anew`
          : `foodapi: ${email} already has the maximum number of active keys; revoke one first`,
      );
      return 1;
    }
    const issued = result.key;
    console.error(`issued key ${issued.id} (${issued.keyPrefix}…) for ${email} (${describeState(config)}); it is shown once, below`);
    print(json, { ...adminKey(issued, user), key: issued.key }, () => `${issued.key}\n`);
    return 0;
  });
}

async function listKeys(email: string | undefined, config: Config, json: boolean): Promise<number> {
  return withAdminState(config, "keys list", async ({ stores }) => {
    const owner = email === undefined ? undefined : await accountOf(stores, email);
    const keys = owner ? await stores.keys.listActive(owner.id) : await stores.keys.listAllActive();
    const emails = new Map((owner ? [owner] : await stores.accounts.list()).map((user) => [user.id, user.email]));
    const items = keys.map((key) => ({ ...adminKey(key), email: emails.get(key.userId) ?? "" }));
    print(json, { items }, () =>
      items.length === 0
        ? `no active keys${email === undefined ? "" : ` for ${email}`}\n`
        : table(
            ["ID", "PREFIX", "NAME", "EMAIL", "CREATED", "LAST USED"],
            items.map((key) => [key.id, key.keyPrefix, key.name, key.email, shortTime(Date.parse(key.createdAt)), shortTime(key.lastUsedAt === null ? null : Date.parse(key.lastUsedAt))]),
          ),
    );
    return 0;
  });
}

async function revokeKey(id: string, config: Config, json: boolean): Promise<number> {
  return withAdminState(config, "keys revoke", async ({ stores, keys }) => {
    const key = await stores.keys.findById(id);
    if (!key) throw new NotFound(`no key has the id '${id}' (see 'foodapi keys list')`);
    if (key.revokedAt !== null) throw new NotFound(`the key ${id} was revoked already, at ${iso(key.revokedAt)}`);
    const now = systemClock();
    // Through the key cache's path: every serving process drops the key before its next request.
    if (!(await keys.revoke(key.userId, key.id, now))) throw new NotFound(`the key ${id} was revoked already`);
    const owner = await stores.accounts.findById(key.userId);
    const revoked = { ...adminKey(key, owner), revokedAt: iso(now) };
    print(json, { key: revoked }, () => `revoked key ${key.id} (${key.keyPrefix}…, '${key.name}') of ${revoked.email}: refused from the next request on\n`);
    return 0;
  });
}

function adminKey(key: ApiKey, owner?: User): AdminKey {
  return {
    id: key.id,
    userId: key.userId,
    email: owner?.email ?? "",
    name: key.name,
    keyPrefix: key.keyPrefix,
    tier: key.tier,
    createdAt: iso(key.createdAt),
    lastUsedAt: key.lastUsedAt === null ? null : iso(key.lastUsedAt),
  };
}
