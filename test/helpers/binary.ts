import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { registerFoodApiServer } from "./contract-fetch";
import { forgetChild, trackChild } from "./hygiene";
import { BINARY_PATH, ROOT } from "./paths";

/**
 * The compiled binary run as a process from a fresh temporary working directory. `prefix`: a command that
 * runs it (`setpriv ...` to run it as another user, `sh -c 'umask 000; exec "$@"' sh`).
 */
export function runBinary(args: string[], options: { cwd?: string; env?: Record<string, string>; prefix?: string[] } = {}) {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "foodapi-bin-"));
  const result = Bun.spawnSync([...(options.prefix ?? []), BINARY_PATH, ...args], { cwd, env: { ...baseEnv(), ...options.env }, stdout: "pipe", stderr: "pipe" });
  return { cwd, exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

export interface RunningServer {
  readonly url: string;
  readonly cwd: string;
  readonly process: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Lines the server wrote to stdout (its access log) so far. */
  stdoutLines(): Promise<string[]>;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/**
 * Starts `foodapi serve` on port 0 (the kernel picks a free loopback port) and reads the chosen address
 * from the start-up line on stderr.
 */
export async function startServer(
  options: { cwd?: string; args?: string[]; env?: Record<string, string>; prefix?: string[] } = {},
): Promise<RunningServer> {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "foodapi-srv-"));
  const child = trackChild(
    Bun.spawn([...(options.prefix ?? []), BINARY_PATH, "serve", "--host", "127.0.0.1", "--port", "0", ...(options.args ?? [])], {
      cwd,
      env: { ...baseEnv(), ...options.env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  let stderr = "";
  let announced: (url: string) => void = () => {};
  const started = new Promise<string>((resolve) => (announced = resolve));
  // Both pipes are drained for the whole run, so a chatty server never blocks on a full pipe.
  const stderrDone = (async () => {
    for await (const chunk of child.stderr) {
      stderr += new TextDecoder().decode(chunk);
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url) announced(url);
    }
  })();
  const url = await Promise.race([started, child.exited.then(() => undefined), Bun.sleep(10_000).then(() => undefined)]);
  if (!url) {
    child.kill();
    await stderrDone;
    throw new Error(`server did not start: ${stderr}`);
  }
  registerFoodApiServer(url, options.env);
  let stdoutText = "";
  const stdoutDone = (async () => {
    for await (const chunk of child.stdout) stdoutText += new TextDecoder().decode(chunk);
  })();
  return {
    url,
    cwd,
    process: child,
    stderr: () => stderr,
    async stdoutLines() {
      await Bun.sleep(50);
      return stdoutText.split("\n").filter(Boolean);
    },
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      const code = await child.exited;
      forgetChild(child);
      await Promise.all([stdoutDone, stderrDone]);
      return code;
    },
  };
}

/** Runs the command as the unprivileged user `nobody` (root passes every permission check). */
export const AS_NOBODY = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"];

/** Runs the command with umask 000, the most permissive one. */
export const WITH_UMASK_000 = ["sh", "-c", 'umask 000; exec "$@"', "sh"];

/** Whether this machine lets the tests mount file systems and switch users (root on Linux, as in CI). */
export const IS_ROOT = process.getuid?.() === 0;

/** A clean environment: nothing of the developer's FOODAPI_* settings leaks into a test. */
function baseEnv(): Record<string, string> {
  // The expanded catalog is cached per checkout: builds of other checkouts on the same machine (each with its
  // own catalog id) would otherwise remove each other's copy from a shared ~/.cache/foodapi.
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", XDG_CACHE_HOME: join(ROOT, "dist", "test-cache") };
}
