import { DEFAULT_SR28_SOURCE } from "../catalog/import/sr28-release";
import type { CommandSpec } from "../platform/config/args";
import { DEFAULT_CATALOG_FILE } from "../catalog/catalog-db";
import { SETTING_FLAGS, settingsHelp, SYSTEMD_UNIT } from "../platform/config/settings";
import { BACKUP_USAGE, KEYS_USAGE, RESTORE_USAGE, USERS_USAGE } from "./usage";

/** Each subcommand: what it accepts (for the argument parser) and its usage (for `--help`). */
export interface Command extends CommandSpec {
  readonly summary: string;
  readonly usage: string;
}

const none = { min: 0, max: 0, name: "" };
/** Where the commands that work on a server's state find it: the same settings as serve. */
const STATE_FLAGS = ["data-dir", "state-url", "redis-url"];

export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    flags: SETTING_FLAGS,
    positionals: none,
    summary: "serve the API (the default command)",
    // Made when asked for (`--help`): the settings' table is text every start would otherwise build.
    get usage() {
      return `Usage: foodapi [serve] [options]\n\nServes the API until SIGTERM or SIGINT. Settings (flag, environment variable; a flag wins):\n${settingsHelp()}\n\nAn invalid setting stops start-up with a message naming it and exit code 2.\n`;
    },
  },
  import: {
    flags: ["out"],
    positionals: { min: 0, max: 1, name: "an SR28 directory or sr28asc.zip" },
    summary: "build a catalog database from SR28's ASCII files",
    usage: `Usage: foodapi import [SR28] [--out FILE]\n\nImports SR28 from SR28: a directory of .txt or .txt.zst files, or the USDA's sr28asc.zip (default: FOODAPI_SR28_DIR,\nelse ./${DEFAULT_SR28_SOURCE}, the copy in a foodapi checkout), into a catalog database at FILE (default: ./${DEFAULT_CATALOG_FILE}).\nThe release's files are checked against its SHA-256; nothing is written unless it all imports.\n`,
  },
  keys: {
    flags: ["email", "name", ...STATE_FLAGS],
    switches: ["json"],
    positionals: { min: 1, max: 2, name: "a subcommand (create, list or revoke)" },
    summary: "issue, list and revoke API keys: keys create|list|revoke",
    usage: KEYS_USAGE,
  },
  users: {
    flags: STATE_FLAGS,
    switches: ["json"],
    positionals: { min: 1, max: 2, name: "a subcommand (list, disable, enable or set-password)" },
    summary: "list accounts, disable or enable one, set its password",
    usage: USERS_USAGE,
  },
  backup: {
    flags: ["out", ...STATE_FLAGS],
    switches: ["json"],
    positionals: none,
    summary: "a consistent copy of the state database, while a server runs",
    usage: BACKUP_USAGE,
  },
  restore: {
    flags: STATE_FLAGS,
    switches: ["json"],
    positionals: { min: 1, max: 1, name: "the backup FILE" },
    summary: "put a backup in place as the state database (the server stopped)",
    usage: RESTORE_USAGE,
  },
  "trial-token": {
    flags: ["url"],
    positionals: none,
    summary: "get a trial token from a running server (solves its challenge)",
    usage:
      "Usage: foodapi trial-token [--url URL]\n\nFetches a bot challenge from the server at URL (default: the base URL the settings give, http://127.0.0.1:3000),\nsolves it, redeems it and prints the trial token as the only line on stdout: 30 requests over 24 hours.\n",
  },
  version: { flags: [], positionals: none, summary: "print the version", usage: "Usage: foodapi version\n" },
  help: { flags: [], positionals: { min: 0, max: 1, name: "" }, summary: "this text; 'foodapi help COMMAND' for one command", usage: "Usage: foodapi help [COMMAND]\n" },
};

export function overallHelp(): string {
  const commands = Object.entries(COMMANDS).map(([name, c]) => `  foodapi ${name.padEnd(12)} ${c.summary}`).join("\n");
  return `foodapi: the USDA SR28 food composition API in one binary\n\nCommands:\n${commands}\n\n'foodapi COMMAND --help' shows a command's usage.\n\nSettings (flag, environment variable; a flag wins over its variable, which wins over the default):\n${settingsHelp()}\n\nThe commands on a server's state (keys, users, backup, restore) read ${SYSTEMD_UNIT.envFile} too where it is readable,\nwith the unit's --data-dir ${SYSTEMD_UNIT.flags["data-dir"]}: run as root on the systemd install, they use the service's state.\n\nAn invalid setting stops start-up with a message naming it and exit code 2.\n`;
}
