#!/usr/bin/env bun
import { HELP } from "./cli/help";
import { parseArgs, UsageError } from "./config/args";
import { ConfigError, loadConfig } from "./config/config";
import { CatalogUnavailable } from "./db/catalog-db";
import { DataDirUnusable } from "./db/storage-fault";
import { SERVICE_NAME, SERVICE_VERSION } from "./meta/version";

/**
 * The entry point: picks the subcommand and maps failures to exit codes. Nothing else. Subcommands load
 * on demand: `import` runs before the web assets the server embeds exist (build.sh), and needs none.
 */
async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  const command = args.command ?? "serve";
  if (args.flags.has("help") || command === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (args.flags.has("version") || command === "version") {
    process.stdout.write(`${SERVICE_NAME} ${SERVICE_VERSION}\n`);
    return 0;
  }
  switch (command) {
    case "serve":
      return (await import("./cli/serve")).serve(loadConfig(args.flags, process.env));
    case "import":
      return (await import("./cli/import")).importCommand(args.positionals, args.flags);
    case "keys":
      return (await import("./cli/keys")).keysCommand(args.positionals, args.flags, loadConfig(args.flags, process.env));
    default:
      throw new UsageError(`unknown command '${command}'; see 'foodapi help'`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(`foodapi: ${error.message}`);
      process.exit(2);
    }
    if (error instanceof CatalogUnavailable || error instanceof DataDirUnusable) {
      console.error(`foodapi: ${error.message}`);
      process.exit(1);
    }
    console.error(`foodapi: ${(error as Error)?.stack ?? error}`);
    process.exit(1);
  },
);
