#!/usr/bin/env bun
import { COMMANDS, overallHelp } from "./cli/commands";
import { CannotStart, NotFound } from "./cli/errors";
import { parseArgs, UsageError } from "./platform/config/args";
import { type Config, ConfigError, loadConfig } from "./platform/config/config";
import { CatalogUnavailable } from "./catalog/catalog-db";
import { DataDirUnusable, StateStoreUnusable } from "./platform/storage/storage-fault";
import { BUILD, SERVICE_NAME, SERVICE_VERSION } from "./platform/version";

/**
 * The entry point: picks the subcommand and maps failures to exit codes. Nothing else. Subcommands load
 * on demand: `import` runs before the web assets the server embeds exist (build.sh), and needs none.
 */
async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, COMMANDS);
  const { command } = args;
  if (args.version || command === "version") {
    const catalog = await (await import("./catalog/catalog-db")).describeCatalog(undefined);
    const built = BUILD.date === undefined ? "" : `, built ${BUILD.date}`;
    process.stdout.write(`${SERVICE_NAME} ${SERVICE_VERSION} (commit ${BUILD.commit}, ${catalog}${built})\n`);
    return 0;
  }
  if (command === "help") {
    const topic = args.positionals[0];
    process.stdout.write(topic === undefined ? overallHelp() : (COMMANDS[topic]?.usage ?? overallHelp()));
    return 0;
  }
  if (args.help) {
    process.stdout.write(args.named ? COMMANDS[command]!.usage : overallHelp());
    return 0;
  }
  switch (command) {
    case "serve":
      return (await import("./cli/serve")).serve(loadConfig(args.flags, process.env));
    case "import":
      return (await import("./cli/import")).importCommand(args.positionals, args.flags);
    case "trial-token":
      return (await import("./cli/trial-token")).trialTokenCommand(args.flags.get("url")?.replace(/\/+$/, "") ?? loadConfig(new Map(), process.env).baseUrl.origin);
    case "users":
      return (await import("./cli/users")).usersCommand(args.positionals, args.flags, await adminConfig(args.flags));
    case "backup":
      return (await import("./cli/backup")).backupCommand(args.flags, await adminConfig(args.flags));
    case "restore":
      return (await import("./cli/backup")).restoreCommand(args.positionals, args.flags, await adminConfig(args.flags));
    default:
      return (await import("./cli/keys")).keysCommand(args.positionals, args.flags, await adminConfig(args.flags));
  }
}

/** The settings of the commands on a server's state: the service's own where known (cli/service-settings.ts). */
async function adminConfig(flags: ReadonlyMap<string, string>): Promise<Config> {
  const config = (await import("./cli/service-settings")).loadAdminConfig(flags, process.env);
  if (config.dataDirNotice !== undefined) console.error(config.dataDirNotice);
  return config;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(`foodapi: ${error.message}`);
      process.exit(2);
    }
    if (error instanceof CatalogUnavailable || error instanceof DataDirUnusable || error instanceof StateStoreUnusable || error instanceof CannotStart || error instanceof NotFound) {
      console.error(`foodapi: ${error.message}`);
      process.exit(1);
    }
    console.error(`foodapi: ${(error as Error)?.stack ?? error}`);
    process.exit(1);
  },
);
