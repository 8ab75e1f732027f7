/** Command-line words split into a subcommand, positional arguments and `--flag value` pairs. */
export interface ParsedArgs {
  readonly command: string;
  /** The command was named on the line (not the default for a line that starts with a flag). */
  readonly named: boolean;
  readonly positionals: readonly string[];
  readonly flags: ReadonlyMap<string, string>;
  /** `-h`/`--help` or `-v`/`--version` anywhere on the line. */
  readonly help: boolean;
  readonly version: boolean;
}

/** What a subcommand accepts: flags that take a value, switches that take none, and how many positional words. */
export interface CommandSpec {
  readonly flags: readonly string[];
  /** `--json`: present or not; in `flags` of the parsed line with the value "". */
  readonly switches?: readonly string[];
  readonly positionals: { readonly min: number; readonly max: number; readonly name: string };
}

export class UsageError extends Error {}

/**
 * The first word names the command (`serve` when the line starts with a flag or is empty); the rest is
 * read against that command's spec, so a mistyped flag (`--prot 3050`) or a stray word (`serve extra`) is
 * an error naming it, never silently ignored.
 */
export function parseArgs(argv: readonly string[], specs: Readonly<Record<string, CommandSpec>>, fallback = "serve"): ParsedArgs {
  const first = argv[0];
  const command = first !== undefined && !first.startsWith("-") ? first : fallback;
  const rest = command === first ? argv.slice(1) : argv;
  const spec = specs[command];
  if (!spec) throw new UsageError(`unknown command '${command}'; see 'foodapi help'`);
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  let help = false;
  let version = false;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (word === "-h" || word === "--help") help = true;
    else if (word === "-v" || word === "--version") version = true;
    else if (word.startsWith("-") && word !== "-") {
      const eq = word.indexOf("=");
      const name = word.startsWith("--") ? word.slice(2, eq === -1 ? undefined : eq) : "";
      if (spec.switches?.includes(name)) {
        if (eq !== -1) throw new UsageError(`--${name} takes no value`);
        flags.set(name, "");
        continue;
      }
      if (!spec.flags.includes(name)) throw new UsageError(`unknown option '${eq === -1 ? word : word.slice(0, eq)}' for 'foodapi ${command}'; see 'foodapi ${command} --help'`);
      if (eq !== -1) flags.set(name, word.slice(eq + 1));
      else {
        const value = rest[i + 1];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
        i++;
      }
    } else {
      positionals.push(word);
    }
  }
  if (!help && !version) {
    if (positionals.length > spec.positionals.max) {
      throw new UsageError(`unexpected argument '${positionals[spec.positionals.max]}' for 'foodapi ${command}'; see 'foodapi ${command} --help'`);
    }
    if (positionals.length < spec.positionals.min) throw new UsageError(`'foodapi ${command}' needs ${spec.positionals.name}; see 'foodapi ${command} --help'`);
  }
  return { command, named: command === first, positionals, flags, help, version };
}
