import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { within } from "../../test/helpers/wait";

/**
 * Process bookkeeping: everything the bench starts is killed, and every temporary directory it makes is
 * removed, on exit, error or SIGINT/SIGTERM. Also /proc: a server's process tree and its memory.
 */

const children = new Set<Subprocess>();
const tempDirs: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function track<T extends Subprocess>(child: T): T {
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

/**
 * Kills every process tracked and removes every directory made since the last call: it may be called again
 * (test files share one process, and each cleans up what it made), and on exit after a signal's call.
 */
export function cleanup() {
  for (const child of children) {
    for (const pid of descendants(child.pid)) killPid(pid, "SIGKILL");
    try {
      child.kill("SIGKILL");
    } catch {}
  }
  children.clear();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** SIGINT and SIGTERM stop every process started and exit 130. */
export function cleanUpOnSignals() {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      console.error(`\nbench: ${signal}, stopping every process started`);
      cleanup();
      process.exit(130);
    });
  }
}

function killPid(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {}
}

/** A clean environment for everything the bench runs: nothing of the developer's FOODAPI_* settings. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...extra };
}

/** SIGTERM, SIGKILL if it has not exited within 5 s; then whatever is left of its tree, by recorded pid. */
export async function stopProcessTree(child: Subprocess) {
  const tree = descendants(child.pid);
  child.kill("SIGTERM");
  const exited = await within(child.exited, 5_000, "SIGTERM").then(() => true, () => false);
  if (!exited) child.kill("SIGKILL");
  await child.exited;
  // Workers normally exit with their primary; anything left is killed by its recorded pid.
  for (const pid of tree) if (memoryKb(pid)) killPid(pid, "SIGKILL");
}

/** Every live descendant of `root` (children, grandchildren...), from /proc/<pid>/stat's ppid field. */
export function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {}
  }
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

export function memoryKb(pid: number): { rss: number; hwm: number; anon: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return { rss: field("VmRSS"), hwm: field("VmHWM"), anon: field("RssAnon") };
  } catch {
    return undefined;
  }
}

let ticksPerSecond: number | undefined;
/**
 * CPU seconds (user + system) spent so far by `root` and its live descendants, from /proc/<pid>/stat
 * (clock ticks, 10 ms each on most systems). The difference over a run, divided by the requests served, is
 * the server's CPU per request: steadier than requests per second on a machine other work shares.
 */
export function cpuSeconds(root: number, withTree: boolean): number {
  ticksPerSecond ??= Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;
  let ticks = 0;
  for (const pid of withTree ? [root, ...descendants(root)] : [root]) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8");
      const after = fields.slice(fields.lastIndexOf(")") + 2).split(" ");
      // utime and stime are the 14th and 15th fields: the 12th and 13th after the ")".
      ticks += Number(after[11]) + Number(after[12]);
    } catch {}
  }
  return ticks / ticksPerSecond;
}
