import type { Subprocess } from "bun";

/**
 * `--workers N`: the first process serves as worker 0 and starts N-1 copies of this executable as the
 * other workers (so the first request is answered as soon as one process is up). Each serves the same port
 * (SO_REUSEPORT, the kernel spreads connections) and opens the same state database, where every quota and
 * limit is counted, so they agree. The first process forwards SIGTERM/SIGINT, waits for the workers to
 * drain, and restarts a worker that dies.
 */

const WORKER_ENV = "FOODAPI_WORKER_INDEX";
const PARENT_ENV = "FOODAPI_WORKER_PARENT";
const RESTART_DELAY_MS = 1000;
const MAX_QUICK_CRASHES = 5;

/** In a worker process: its index, how to tell the first process that it listens, and a message channel to it. */
export type WorkerRole = {
  index: number;
  ready(port: number): void;
  /** Sends a message to the first process (over the IPC channel it started this worker with). */
  send(message: WorkerMessage): void;
  /** Messages from the first process other than the start-up handshake. */
  onMessage(handler: (message: WorkerMessage) => void): void;
};

/** What travels between the first process and its workers besides the handshake (metrics, fleet.ts). */
export type WorkerMessage = { readonly type: string; readonly [field: string]: unknown };

export function workerRole(): WorkerRole | null {
  const index = process.env[WORKER_ENV];
  if (index === undefined || !process.send) return null;
  // Named by the first process itself: a worker started just before that process died must not take
  // its new parent (init) for it.
  const parent = Number(process.env[PARENT_ENV]);
  return {
    index: Number(index),
    ready(port) {
      process.send!({ ready: true, port });
      // A first process killed outright (SIGKILL, OOM) cannot forward the stop: a worker whose parent
      // is gone stops itself instead of serving on as an orphan.
      const checkParent = () => {
        if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
      };
      checkParent();
      setInterval(checkParent, 500).unref();
    },
    send(message) {
      process.send!(message);
    },
    onMessage(handler) {
      process.on("message", (message: WorkerMessage) => {
        if (typeof message === "object" && message !== null && typeof message.type === "string") handler(message);
      });
    },
  };
}

/** The command that runs this program again: the compiled binary itself, or bun with the entry script. */
function selfCommand(): string[] {
  const script = process.argv[1];
  const compiled = script === undefined || script.startsWith("/$bunfs/") || script === process.execPath;
  return compiled ? [process.execPath] : [process.execPath, script];
}

export interface WorkerFleet {
  /** Resolves when every worker listens; rejects when one exits before it does. */
  readonly ready: Promise<void>;
  readonly size: number;
  /** The indices of the workers running now. */
  running(): number[];
  /** Sends a message to worker `index`; false when it is not running. */
  send(index: number, message: WorkerMessage): boolean;
  /** Forwards SIGTERM and waits for every worker to drain; true when all exited with code 0. */
  stop(): Promise<boolean>;
}

/**
 * Starts workers `first..first+count-1` on `port`, which this process already listens on, and restarts any
 * that dies (unless it keeps dying at start-up: then this process is asked to stop).
 */
export function startWorkers(port: number, first: number, count: number, onMessage: (index: number, message: WorkerMessage) => void = () => {}): WorkerFleet {
  const args = process.argv.slice(2).filter((arg, i, all) => arg !== "--port" && all[i - 1] !== "--port" && !arg.startsWith("--port="));
  let stopping = false;
  let quickCrashes = 0;
  const workers = new Map<number, Subprocess>();

  const start = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const startedAt = Date.now();
      const child = Bun.spawn([...selfCommand(), ...args, "--port", String(port)], {
        env: { ...process.env, [WORKER_ENV]: String(index), [PARENT_ENV]: String(process.pid) },
        stdin: "ignore",
        stdout: "inherit",
        stderr: "inherit",
        ipc(message: { ready?: boolean } | WorkerMessage) {
          if ("ready" in message && message.ready) resolve();
          else if ("type" in message && typeof message.type === "string") onMessage(index, message as WorkerMessage);
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

  const ready = Promise.all(Array.from({ length: count }, (_, i) => start(first + i))).then(() => undefined);
  // Observed here so that a failure before anyone awaits `ready` is not an unhandled rejection.
  ready.catch(() => {});
  return {
    ready,
    size: count,
    running: () => [...workers.keys()],
    send(index, message) {
      const child = workers.get(index);
      if (!child || child.killed || child.exitCode !== null) return false;
      try {
        child.send(message);
        return true;
      } catch {
        // The worker is exiting: its channel is closed.
        return false;
      }
    },
    async stop() {
      stopping = true;
      const codes = await Promise.all(
        [...workers.values()].map((child) => {
          child.kill("SIGTERM");
          return child.exited;
        }),
      );
      return codes.every((code) => code === 0);
    },
  };
}
