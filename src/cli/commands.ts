import { DEFAULT_SR28_SOURCE } from "../catalog/import/sr28-release";
import type { CommandSpec } from "../config/args";
import { DEFAULT_CATALOG_FILE } from "../db/catalog-db";
import { SETTING_FLAGS, settingsHelp } from "../config/settings";

/** Each subcommand: what it accepts (for the argument parser) and its usage (for `--help`). */
export interface Command extends CommandSpec {
  readonly summary: string;
  readonly usage: string;
}

const none = { min: 0, max: 0, name: "" };

export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    flags: SETTING_FLAGS,
    positionals: none,
    summary: "serve the API (the default command)",
    usage: `Usage: foodapi [serve] [options]\n\nServes the API until SIGTERM or SIGINT. Settings (flag, environment variable; a flag wins):\n${settingsHelp()}\n\nAn invalid setting stops start-up with a message naming it and exit code 2.\n`,
  },
  import: {
    flags: ["out"],
    positionals: { min: 0, max: 1, name: "an SR28 directory or sr28asc.zip" },
    summary: "build a catalog database from SR28's ASCII files",
    usage: `Usage: foodapi import [SR28] [--out FILE]\n\nImports SR28 from SR28: a directory of .txt or .txt.zst files, or the USDA's sr28asc.zip (default: FOODAPI_SR28_DIR,\nelse ./${DEFAULT_SR28_SOURCE}, the copy in a foodapi checkout), into a catalog database at FILE (default: ./${DEFAULT_CATALOG_FILE}).\nThe release's files are checked against its SHA-256; nothing is written unless it all imports.\n`,
  },
  keys: {
    flags: ["email", "name", "data-dir", "state-url"],
    positionals: { min: 1, max: 1, name: "a subcommand ('create')" },
    summary: "issue an API key (creates the account if needed)",
    usage:
      "Usage: foodapi keys create --email E --name N [--data-dir DIR | --state-url postgres://…]\n\nIssues an API key for E in the state a server uses: its data directory (--data-dir or FOODAPI_DATA_DIR, default ./data;\nit must exist: start the server once first), or its PostgreSQL (--state-url or FOODAPI_STATE_URL). The key is the only\nline on stdout.\n",
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
  const commands = Object.entries(COMMANDS).map(([name, c]) => `  foodapi ${name.padEnd(11)} ${c.summary}`).join("\n");
  return `foodapi: the USDA SR28 food composition API in one binary\n\nCommands:\n${commands}\n\n'foodapi COMMAND --help' shows a command's usage.\n\nSettings (flag, environment variable; a flag wins over its variable, which wins over the default):\n${settingsHelp()}\n\nAn invalid setting stops start-up with a message naming it and exit code 2.\n`;
}
