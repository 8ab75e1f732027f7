import type { Subprocess } from "bun";
import { readStream, type StreamText } from "./wait";

/** The line `foodapi serve` and bench/ceiling.ts announce their address with, on stderr. */
const LISTENING = /listening on (http:\/\/[^\s)]+)/;

export interface Listening<Out extends "pipe" | "ignore"> {
  readonly child: Subprocess<"ignore", Out, "pipe">;
  readonly url: string;
  readonly stderr: StreamText;
  /** Read as stderr is, when `stdout: "pipe"`. */
  readonly stdout: Out extends "pipe" ? StreamText : undefined;
}

/**
 * Spawns a server and waits for the line announcing its address: the event itself, not a guess at how long
 * a start takes. Fails when it exits first or after `timeoutMs`, killing it and quoting its stderr. Its
 * stderr (and stdout when piped) is read for its whole life, so it never blocks on a full pipe. No
 * test-runner imports: the tests' helpers and bench/ both start servers with it. `track` is told of the
 * process as soon as it exists (to stop it whatever happens next).
 */
export async function spawnListening<Out extends "pipe" | "ignore">(
  cmd: string[],
  options: { cwd: string; env: Record<string, string>; stdout: Out; timeoutMs: number; what: string; track?: (child: Subprocess) => void },
): Promise<Listening<Out>> {
  const child = Bun.spawn(cmd, { cwd: options.cwd, env: options.env, stdin: "ignore", stdout: options.stdout, stderr: "pipe" }) as Subprocess<"ignore", Out, "pipe">;
  options.track?.(child);
  const stderr = readStream(child.stderr);
  const stdout = (options.stdout === "pipe" ? readStream(child.stdout as ReadableStream<Uint8Array>) : undefined) as Listening<Out>["stdout"];
  try {
    const url = await stderr.until((text) => LISTENING.exec(text)?.[1], options.timeoutMs, "its start-up line");
    return { child, url, stderr, stdout };
  } catch (error) {
    child.kill("SIGKILL");
    await child.exited;
    throw new Error(`${options.what} did not start (exit ${child.exitCode}): ${(error as Error).message}`);
  }
}
