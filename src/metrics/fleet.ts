import type { MetricsSnapshot } from "./registry";

/**
 * One scrape shows the whole server, whichever process the kernel hands the connection to. Counters stay
 * in each process (nothing shared is written per request); a scrape asks for them:
 *
 * - scraped in the first process: it asks every worker for its snapshot over the IPC channel it started
 *   them with, and adds its own;
 * - scraped in a worker: it asks the first process, which collects as above (the asking worker answers
 *   too) and sends the whole set back.
 *
 * A worker that does not answer within COLLECT_TIMEOUT_MS (it is restarting) is left out of that scrape;
 * `foodapi_workers` says how many processes a scrape holds. A restarted worker counts from zero again,
 * which Prometheus's `rate()` reads as the counter reset it is.
 */
const COLLECT_TIMEOUT_MS = 1000;

export type CollectSnapshots = () => Promise<MetricsSnapshot[]>;

/**
 * What the collectors need of the processes' message channels, which the entry point owns (src/cli/workers.ts
 * `WorkerFleet` and `WorkerRole` are these): declared here, so that metrics knows nothing of how workers start.
 */
export type FleetMessage = { readonly type: string; readonly [field: string]: unknown };
/** The first process's side: its running workers, and a message to one (false when it is not running). */
export interface FleetChannel {
  running(): number[];
  send(index: number, message: FleetMessage): boolean;
}
/** A worker's side: messages to and from the first process. */
export interface WorkerChannel {
  send(message: FleetMessage): void;
  onMessage(handler: (message: FleetMessage) => void): void;
}

interface Pending {
  resolve(snapshots: MetricsSnapshot[]): void;
  timer: ReturnType<typeof setTimeout>;
}

/** In the first process (with `fleet()` once the workers are started) or in a single process. */
export function primaryCollector(local: () => MetricsSnapshot, fleet: () => FleetChannel | undefined) {
  let nextId = 0;
  const waiting = new Map<number, { snapshots: MetricsSnapshot[]; left: Set<number>; done(): void }>();

  const collect: CollectSnapshots = () => {
    const workers = fleet();
    const own = local();
    const indices = workers?.running() ?? [];
    if (!workers || indices.length === 0) return Promise.resolve([own]);
    const id = ++nextId;
    return new Promise((resolve) => {
      const entry = {
        snapshots: [own],
        left: new Set<number>(),
        done: () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(entry.snapshots);
        },
      };
      const timer = setTimeout(entry.done, COLLECT_TIMEOUT_MS);
      waiting.set(id, entry);
      for (const index of indices) if (workers.send(index, { type: "metrics-collect", id })) entry.left.add(index);
      if (entry.left.size === 0) entry.done();
    });
  };

  /** The fleet's message handler: snapshots coming back, and scrapes a worker forwards. */
  const onWorkerMessage = (index: number, message: FleetMessage): void => {
    if (message.type === "metrics-snapshot") {
      const entry = waiting.get(message.id as number);
      if (!entry || !entry.left.delete(index)) return;
      entry.snapshots.push(message.snapshot as MetricsSnapshot);
      if (entry.left.size === 0) entry.done();
    } else if (message.type === "metrics-scrape") {
      void collect().then((snapshots) => fleet()?.send(index, { type: "metrics-merged", id: message.id, snapshots }));
    }
  };
  return { collect, onWorkerMessage };
}

/** In a worker: answers the first process's collections, and asks it for the whole set when scraped. */
export function workerCollector(local: () => MetricsSnapshot, role: WorkerChannel): CollectSnapshots {
  let nextId = 0;
  const pending = new Map<number, Pending>();
  role.onMessage((message) => {
    if (message.type === "metrics-collect") {
      role.send({ type: "metrics-snapshot", id: message.id, snapshot: local() });
    } else if (message.type === "metrics-merged") {
      const entry = pending.get(message.id as number);
      if (!entry) return;
      pending.delete(message.id as number);
      clearTimeout(entry.timer);
      entry.resolve(message.snapshots as MetricsSnapshot[]);
    }
  });
  return () =>
    new Promise((resolve) => {
      const id = ++nextId;
      // The first process not answering (it is stopping) leaves this worker's own figures.
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve([local()]);
      }, 2 * COLLECT_TIMEOUT_MS);
      pending.set(id, { resolve, timer });
      role.send({ type: "metrics-scrape", id });
    });
}
