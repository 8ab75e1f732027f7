import { existsSync } from "node:fs";
import { parseEmail } from "../accounts/email";
import { findOrCreatePasswordlessAccount } from "../accounts/service";
import { CannotStart } from "./errors";
import { systemClock } from "../clock";
import type { Config } from "../config/config";
import { UsageError } from "../config/args";
import { describeState, openState, stateUnusable } from "../db/open-state";
import { storageFault } from "../db/storage-fault";
import { issueKey, KEY_NAME_MAX_LENGTH } from "../keys/service";
import { parseName } from "../security/text";

/**
 * `foodapi keys create --email E --name N`: issues a key without the dashboard, creating the account
 * (without a password) if needed. The plaintext key is the only line on stdout.
 */
export async function keysCommand(positionals: readonly string[], flags: ReadonlyMap<string, string>, config: Config): Promise<number> {
  if (positionals[0] !== "create") throw new UsageError("usage: foodapi keys create --email E --name N");
  const email = parseEmail(flags.get("email") ?? "");
  const checked = parseName(flags.get("name") ?? "", KEY_NAME_MAX_LENGTH);
  if (email === undefined) throw new UsageError("--email must be a valid e-mail address");
  if (!checked.ok) throw new UsageError(`--name ${checked.problem}`);
  const name = checked.name;

  // A data directory that does not exist means the wrong directory (a server elsewhere would never see the
  // key), not a new one to create: only `serve` creates one.
  if (!config.stateUrl && !existsSync(config.dataDir)) {
    throw new CannotStart(
      `no data directory at ${config.dataDir}: 'keys create' issues keys into a server's data directory (start 'foodapi serve' there once, or pass --data-dir or FOODAPI_DATA_DIR)`,
    );
  }
  const state = await openState(config, (line) => console.error(line));
  try {
    const user = await findOrCreatePasswordlessAccount(state.accounts, email, systemClock());
    const result = await issueKey(state.keys, systemClock, user.id, name);
    if (!result.ok) {
      console.error(`foodapi: ${email} already has the maximum number of active keys; revoke one first`);
      return 1;
    }
    const issued = result.key;
    console.error(`issued key ${issued.id} (${issued.keyPrefix}…) for ${email} (${describeState(config)}); it is shown once, below`);
    process.stdout.write(`${issued.key}\n`);
    return 0;
  } catch (error) {
    // A disk that fills up after the database opened: the same one line as an unusable directory.
    throw storageFault(error) ? stateUnusable(config, error) : error;
  } finally {
    await state.close();
  }
}
