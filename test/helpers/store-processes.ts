import { chownSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { IS_ROOT, PG_BIN, postgresMissing, postgresUid, REDIS_SERVER, redisMissing } from "./store-binaries";

export { postgresMissing, redisMissing };

/**
 * Throwaway PostgreSQL and Redis servers: real servers from Debian's packages, on loopback, with their
 * files in a temporary directory. No test-runner imports: the tests (test/helpers/store-servers.ts, which
 * has them killed when the run ends) and bench/ (which kills what it started on exit) both start them,
 * each telling `track` and `forget` of the processes. `postgresMissing()` and `redisMissing()` say why one
 * cannot run here; what needs it skips with that message, and `.ci/run` installs both, so in CI nothing
 * skips.
 */

/** Told of every server process as soon as it exists, and when it was stopped. */
export interface ProcessHooks {
  track?(child: Subprocess): void;
  forget?(child: Subprocess): void;
  /** A fresh temporary directory (default: mkdtemp under the OS's temporary directory). */
  tempDir?(prefix: string): string;
}

export interface RedisOptions extends ProcessHooks {
  /**
   * Keeps the data across `stop()` and `start()` (an append-only file, written at every command): a Redis
   * restart then loses no counter, as a production Redis with persistence does. Default: no persistence.
   */
  persistent?: boolean;
}

export interface StoreServer {
  /** `postgres://…` or `redis://…` on 127.0.0.1. */
  readonly url: string;
  readonly port: number;
  /** Stops it (a fast shutdown); the data stays, and `start()` brings the same server back. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` user. */
function asPostgres(): string[] {
  if (!IS_ROOT) return [];
  const { uid, gid } = postgresUid()!;
  return ["setpriv", "--reuid", String(uid), "--regid", String(gid), "--clear-groups"];
}

const defaultTempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * Runs `command` until a line of its output matches `ready`, within `timeoutMs`; the process, for stopping.
 * Its output is kept for the error message when it does not get there.
 */
async function startUntil(command: string[], ready: RegExp, timeoutMs: number, cwd: string, hooks: ProcessHooks) {
  const child = Bun.spawn(command, { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  hooks.track?.(child);
  let output = "";
  let seen: () => void = () => {};
  const readyNow = new Promise<void>((resolve) => (seen = resolve));
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      output += new TextDecoder().decode(chunk);
      if (ready.test(output)) seen();
    }
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    readyNow.then(() => "ready" as const),
    child.exited.then(() => "exited" as const),
    new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome !== "ready") {
    child.kill("SIGKILL");
    await child.exited;
    hooks.forget?.(child);
    throw new Error(`${command.join(" ")}: ${outcome === "timeout" ? `not ready after ${timeoutMs} ms` : "exited"}:\n${output}`);
  }
  return {
    async stop(signal: NodeJS.Signals) {
      child.kill(signal);
      await child.exited;
      hooks.forget?.(child);
      await drained;
    },
  };
}

/**
 * A fresh PostgreSQL cluster (initdb, trust authentication on loopback only) with an empty database
 * `foodapi`, owned by the `postgres` role the URL names.
 */
export async function startPostgres(hooks: ProcessHooks = {}): Promise<StoreServer> {
  const missing = postgresMissing();
  if (missing) throw new Error(missing);
  const dir = (hooks.tempDir ?? defaultTempDir)("foodapi-pg-");
  if (IS_ROOT) {
    const { uid, gid } = postgresUid()!;
    chownSync(dir, uid, gid);
  }
  const initdb = Bun.spawnSync([...asPostgres(), join(PG_BIN!, "initdb"), "-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"], { cwd: dir });
  if (initdb.exitCode !== 0) throw new Error(`initdb failed: ${initdb.stderr.toString()}`);
  const port = await freePort();
  const command = [
    ...asPostgres(),
    join(PG_BIN!, "postgres"),
    "-D", dir,
    "-p", String(port),
    "-c", "listen_addresses=127.0.0.1",
    "-c", `unix_socket_directories=${dir}`,
    // A test server: durability is not what is under test, speed of a throwaway cluster is.
    "-c", "fsync=off",
    "-c", "synchronous_commit=off",
    "-c", "full_page_writes=off",
    "-c", "max_connections=200",
  ];
  let running = await startUntil(command, /ready to accept connections/, 30_000, dir, hooks);
  const createdb = Bun.spawnSync([join(PG_BIN!, "createdb"), "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "foodapi"]);
  if (createdb.exitCode !== 0) throw new Error(`createdb failed: ${createdb.stderr.toString()}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/foodapi`,
    port,
    // SIGINT: PostgreSQL's fast shutdown (clients disconnected, no waiting for them).
    stop: () => running.stop("SIGINT"),
    async start() {
      running = await startUntil(command, /ready to accept connections/, 30_000, dir, hooks);
    },
  };
}

/** A Redis server, without persistence unless `options.persistent`. */
export async function startRedis(options: RedisOptions = {}): Promise<StoreServer> {
  const missing = redisMissing();
  if (missing) throw new Error(missing);
  const dir = (options.tempDir ?? defaultTempDir)("foodapi-redis-");
  const port = await freePort();
  const persistence = options.persistent ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"];
  const command = [REDIS_SERVER!, "--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence, "--dir", dir];
  let running = await startUntil(command, /Ready to accept connections/, 15_000, dir, options);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => running.stop("SIGTERM"),
    async start() {
      running = await startUntil(command, /Ready to accept connections/, 15_000, dir, options);
    },
  };
}
