import type { Subprocess } from "bun";
import type { Config } from "../config/config";
import { announce } from "./announce";

/**
 * `--workers N`: a supervisor starts N copies of this executable as workers. Each serves the same port
 * (SO_REUSEPORT, the kernel spreads connections) and opens the same state database, where every quota and
 * limit is counted, so they agree. The supervisor forwards SIGTERM/SIGINT, waits for the workers to drain,
 * and restarts a worker that dies.
 */

const WORKER_ENV = "FOODAPI_WORKER_INDEX";
const RESTART_DELAY_MS = 1000;
const MAX_QUICK_CRASHES = 5;

/** In a worker process: its index and how to tell the supervisor it listens. */
export function workerRole(): { index: number; ready(port: number): void } | null {
  const index = process.env[WORKER_ENV];
  if (index === undefined || !process.send) return null;
  return {
    index: Number(index),
    ready(port) {
      process.send!({ ready: true, port });
      // A supervisor killed outright (SIGKILL, OOM) cannot forward the stop: a worker whose parent
      // changed stops itself instead of serving on as an orphan.
      const parent = process.ppid;
      setInterval(() => {
        if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
      }, 500).unref();
    },
  };
}

/** The command that runs this program again: the compiled binary itself, or bun with the entry script. */
function selfCommand(): string[] {
  const script = process.argv[1];
  const compiled = script === undefined || script.startsWith("/$bunfs/") || script === process.execPath;
  return compiled ? [process.execPath] : [process.execPath, script];
}

export async function superviseWorkers(config: Config): Promise<number> {
  const args = process.argv.slice(2).filter((arg, i, all) => arg !== "--port" && all[i - 1] !== "--port" && !arg.startsWith("--port="));
  let port = config.port;
  let stopping = false;
  let quickCrashes = 0;
  const workers = new Map<number, Subprocess>();

  const start = (index: number) =>
    new Promise<number>((resolve, reject) => {
      const startedAt = Date.now();
      const child = Bun.spawn([...selfCommand(), ...args, "--port", String(port)], {
        env: { ...process.env, [WORKER_ENV]: String(index) },
        stdin: "ignore",
        stdout: "inherit",
        stderr: "inherit",
        ipc(message: { ready?: boolean; port?: number }) {
          if (message.ready && message.port) resolve(message.port);
        },
        onExit(_proc, exitCode) {
          workers.delete(index);
          reject(new Error(`worker ${index} exited with code ${exitCode} before listening`));
          if (stopping) return;
          quickCrashes = Date.now() - startedAt < 5000 ? quickCrashes + 1 : 0;
          if (quickCrashes > MAX_QUICK_CRASHES) {
            console.error(`foodapi: worker ${index} keeps failing; stopping`);
            process.kill(process.pid, "SIGTERM");
            return;
          }
          console.error(`foodapi: worker ${index} exited (code ${exitCode}); restarting it`);
          setTimeout(() => void start(index).catch(() => {}), RESTART_DELAY_MS);
        },
      });
      workers.set(index, child);
    });

  try {
    // The first worker binds (port 0 means any free port); the others join the port it got.
    port = await start(0);
    await Promise.all(Array.from({ length: config.workers - 1 }, (_, i) => start(i + 1)));
  } catch (error) {
    stopping = true;
    for (const child of workers.values()) child.kill("SIGTERM");
    console.error(`foodapi: ${(error as Error).message}`);
    return 1;
  }
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  announce(config, `http://${host}:${port}`, config.workers);

  // Handlers stay installed: a second signal (a terminal's SIGINT reaches every process of the group,
  // a service manager may signal them all) must not cut the drain short.
  const signal = await new Promise<string>((resolve) => {
    process.on("SIGTERM", () => resolve("SIGTERM"));
    process.on("SIGINT", () => resolve("SIGINT"));
  });
  stopping = true;
  console.error(`${signal}: draining in-flight requests in ${workers.size} workers`);
  const exits = [...workers.values()].map((child) => {
    child.kill("SIGTERM");
    return child.exited;
  });
  const codes = await Promise.all(exits);
  console.error("stopped");
  return codes.every((code) => code === 0) ? 0 : 1;
}
