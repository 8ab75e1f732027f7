/** Command-line words split into a subcommand, positional arguments and `--flag value` pairs. */
export interface ParsedArgs {
  readonly command: string | undefined;
  readonly positionals: readonly string[];
  readonly flags: ReadonlyMap<string, string>;
}

/** Flags that take no value. Everything else takes the next word, or the part after `=`. */
const SWITCHES = new Set(["help", "version"]);

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "-h") {
      flags.set("help", "true");
    } else if (word.startsWith("--") && word.length > 2) {
      const eq = word.indexOf("=");
      const name = eq === -1 ? word.slice(2) : word.slice(2, eq);
      if (eq !== -1) flags.set(name, word.slice(eq + 1));
      else if (SWITCHES.has(name)) flags.set(name, "true");
      else {
        const value = argv[i + 1];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
        i++;
      }
    } else {
      positionals.push(word);
    }
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, flags };
}
