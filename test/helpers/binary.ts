import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { forgetFoodApiServer, registerFoodApiServer } from "./contract-fetch";
import { forgetChild, trackChild } from "./hygiene";
import { BINARY_PATH, ROOT } from "./paths";
import { spawnListening } from "./listening";

/**
 * The compiled binary run as a process from a fresh temporary working directory. `prefix`: a command that
 * runs it (`setpriv ...` to run it as another user, `sh -c 'umask 000; exec "$@"' sh`).
 */
export function runBinary(args: string[], options: { cwd?: string; env?: Record<string, string>; prefix?: string[] } = {}) {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "foodapi-bin-"));
  const result = Bun.spawnSync([...(options.prefix ?? []), BINARY_PATH, ...args], { cwd, env: { ...baseEnv(), ...options.env }, stdout: "pipe", stderr: "pipe" });
  return { cwd, exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/**
 * `runBinary` without blocking this process: what a test needs while its own requests keep a server busy
 * (a backup under load), or to write to the command's stdin.
 */
export async function runBinaryAsync(args: string[], options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}) {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), "foodapi-bin-"));
  const child = trackChild(
    Bun.spawn([BINARY_PATH, ...args], {
      cwd,
      env: { ...baseEnv(), ...options.env },
      stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  forgetChild(child);
  return { cwd, exitCode, stdout, stderr };
}

/**
 * `runBinaryAsync`, but `beforeStart` is called with the command's process id before the binary runs: a
 * shell holds the process until then and `exec`s the binary in it (same id). For what a local attacker
 * does with a name built from the pid.
 */
export async function runBinaryWithPid(args: string[], options: { cwd: string }, beforeStart: (pid: number) => void) {
  const child = trackChild(
    Bun.spawn(["sh", "-c", 'read -r go; exec "$@" </dev/null', "sh", BINARY_PATH, ...args], {
      cwd: options.cwd,
      env: baseEnv(),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  try {
    beforeStart(child.pid);
  } finally {
    child.stdin.write("go\n");
    child.stdin.end();
  }
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  forgetChild(child);
  return { cwd: options.cwd, exitCode, stdout, stderr };
}

export interface RunningServer {
  readonly url: string;
  readonly cwd: string;
  readonly process: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Waits until the server's stderr holds `pattern` (5 s at most); resolves with the match. */
  waitForStderr(pattern: RegExp): Promise<RegExpExecArray>;
  /**
   * Lines the server wrote to stdout (its access log). The log is written in batches, a few milliseconds
   * after the answers: while the server runs, `until` names the entries to wait for (5 s at most), and the
   * lines are returned once they are there; without it, the whole log of a server that has stopped.
   */
  stdoutLines(until?: (entries: Record<string, any>[]) => boolean): Promise<string[]>;
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
  const { child, url, stderr, stdout } = await spawnListening(
    [...(options.prefix ?? []), BINARY_PATH, "serve", "--host", "127.0.0.1", "--port", "0", ...(options.args ?? [])],
    { cwd, env: { ...baseEnv(), ...options.env }, stdout: "pipe", timeoutMs: 10_000, what: "the server", track: trackChild },
  );
  registerFoodApiServer(url, options.env);
  // However the process ends (stopped, killed by a test, crashed), its port may be given to another server.
  void child.exited.then(() => forgetFoodApiServer(url));
  const completeLines = (text: string) => text.slice(0, text.lastIndexOf("\n") + 1).split("\n").filter(Boolean);
  return {
    url,
    cwd,
    process: child,
    stderr: () => stderr.text(),
    waitForStderr: (pattern) => stderr.until((text) => pattern.exec(text) ?? undefined, 5_000, `${pattern} on the server's stderr`),
    async stdoutLines(until) {
      if (!until) {
        if (!stdout.ended()) throw new Error("stdoutLines() without a condition is the whole log of a stopped server: stop it first, or name the entries to wait for");
        return completeLines(stdout.text());
      }
      return stdout.until(
        (text) => {
          const lines = completeLines(text);
          return until(lines.map((line) => JSON.parse(line))) ? lines : undefined;
        },
        5_000,
        "the access-log entries waited for",
      );
    },
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      const code = await child.exited;
      forgetChild(child);
      await Promise.all([stdout.done, stderr.done]);
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
