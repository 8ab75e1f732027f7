import { UsageError } from "../platform/config/args";

/** A password is a line, not a file: more than this on stdin is a mistake (a wrong file piped in). */
const MAX_INPUT_BYTES = 4096;

/**
 * The password on stdin: piped (`printf '%s\n' "$PW" | foodapi users set-password E`), one line, its line
 * ending dropped; or typed at a terminal after `prompt`, without echo. Never an argument: arguments are
 * visible to every user of the machine (ps) and kept in shell history.
 */
export async function readPassword(prompt: string): Promise<string> {
  const text = process.stdin.isTTY ? await typed(prompt) : await piped();
  const line = text.replace(/\r?\n$/, "");
  if (/[\r\n]/.test(line)) throw new UsageError("the password on stdin must be one line");
  return line;
}

async function piped(): Promise<string> {
  const bytes = await Bun.stdin.bytes();
  if (bytes.length > MAX_INPUT_BYTES) throw new UsageError(`the password on stdin must be one line (got ${bytes.length} bytes)`);
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

async function typed(prompt: string): Promise<string> {
  const stty = (setting: string) => Bun.spawnSync(["stty", setting], { stdin: "inherit", stdout: "ignore", stderr: "ignore" });
  process.stderr.write(prompt);
  stty("-echo");
  try {
    for await (const line of console) return line;
    return "";
  } finally {
    stty("echo");
    process.stderr.write("\n");
  }
}
