import { existsSync } from "node:fs";
import { parseEmail } from "../accounts/email";
import type { User } from "../accounts/store";
import { systemClock } from "../platform/clock";
import { UsageError } from "../platform/config/args";
import type { Config } from "../platform/config/config";
import { openState, stateUnusable } from "../app/state/open-state";
import type { StateStores } from "../app/state/state-stores";
import { storageFault } from "../platform/storage/storage-fault";
import { type ActiveKeys, createActiveKeys } from "../keys/active-keys";
import { CannotStart, NotFound } from "./errors";
import { serviceSettingsHint } from "./service-settings";

export { NotFound };

/** The state a server uses, opened for one admin command, and the key cache's revocation path over it. */
export interface AdminState {
  readonly stores: StateStores;
  /** Revokes and forgets keys so that every serving process hears of it (keys/active-keys.ts). */
  readonly keys: ActiveKeys;
}

/**
 * Runs `work` on the state the settings name: the data directory (which must exist: a server elsewhere
 * would never see a change made in a new one) or PostgreSQL, with the Redis revocation signal when
 * `--redis-url` is set, so that a running server sees the change on its next request.
 */
export async function withAdminState<T>(config: Config, command: string, work: (state: AdminState) => Promise<T>): Promise<T> {
  requireDataDir(config, command);
  const stores = await openState(config, (line) => console.error(line));
  try {
    return await work({ stores, keys: createActiveKeys({ store: stores.keys, revocations: stores.keyRevocations, clock: systemClock }) });
  } catch (error) {
    // A disk that fills up after the database opened: the same one line as an unusable directory.
    throw storageFault(error) ? stateUnusable(config, error) : error;
  } finally {
    await stores.close();
  }
}

/**
 * The data directory a command works on must exist (unless the state is in PostgreSQL): one made anew
 * would be one no server uses. Nothing is created.
 */
export function requireDataDir(config: Config, command: string): void {
  if (config.stateUrl || existsSync(config.dataDir)) return;
  throw new CannotStart(
    `no data directory at ${config.dataDir}: '${command}' works on a server's data directory (start 'foodapi serve' there once, or pass --data-dir or FOODAPI_DATA_DIR)${serviceSettingsHint(config)}`,
  );
}

/** An e-mail argument: malformed is a usage error (exit 2). */
export function emailArgument(raw: string | undefined, what = "EMAIL"): string {
  const email = parseEmail(raw ?? "");
  if (email === undefined) throw new UsageError(`${what} must be a valid e-mail address, not '${raw ?? ""}'`);
  return email;
}

/** The account of a well-formed e-mail, or NotFound (exit 1). */
export async function accountOf(stores: StateStores, email: string): Promise<User> {
  const user = await stores.accounts.findByEmail(email);
  if (!user) throw new NotFound(`no account has the e-mail ${email}`);
  return user;
}

/** Writes `value` as one JSON document (`--json`), or the human text. */
export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : human());
}

/** Rows as aligned columns under a header, for the human output of the list commands. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ");
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

export const iso = (ms: number) => new Date(ms).toISOString();
/** A time for a table: to the minute, UTC. */
export const shortTime = (ms: number | null) => (ms === null ? "-" : `${iso(ms).slice(0, 16).replace("T", " ")}Z`);
