import type { RedisClient } from "bun";
import type { RedisUrl } from "../config/config";

/**
 * Connections to Redis (`--redis-url`) for the counters that instances share (app/state/redis-state.ts), over
 * Bun's built-in client.
 *
 * Bounds: connecting gives up after REDIS_CONNECT_TIMEOUT_MS, a command after REDIS_COMMAND_TIMEOUT_MS,
 * so no call waits longer than their sum (2 s), after which it rejects with an error that
 * platform/storage/storage-fault.ts reads as a storage fault (a 503 with Retry-After).
 *
 * Reconnecting is done here, not by the client's `autoReconnect`: with it, Bun (1.4) fires no `onclose`
 * on a dropped connection, never re-issues SUBSCRIBE after reconnecting (a subscriber goes deaf without
 * knowing), stops after `maxRetries`, and a `connect()` to a refused port never settles. Without it every
 * failure is one rejection, and the next call (or the subscriber's loop) starts a fresh connection.
 */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
export const REDIS_COMMAND_TIMEOUT_MS = 1000;
/** After a failed connect the next attempt waits this long, doubling up to the maximum; calls meanwhile fail at once. */
const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 1000;

/** Redis did not answer in time, cannot be reached, or this side closed the connection. */
class RedisUnavailable extends Error {
  override name = "RedisUnavailable";
  constructor(
    readonly code: "REDIS_TIMEOUT" | "REDIS_UNREACHABLE" | "REDIS_CLOSED",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A Lua script, run by its SHA1 once Redis knows it (platform/storage/redis.ts `evalScript`). */
export interface RedisScript {
  readonly source: string;
  readonly sha: string;
}

export const redisScript = (source: string): RedisScript => ({ source, sha: new Bun.CryptoHasher("sha1").update(source).digest("hex") });

export interface RedisConnection {
  /** A command's reply; rejects within the bounds above when Redis does not give one. */
  send(command: string, args: string[]): Promise<unknown>;
  /**
   * Runs `script` atomically on the server (EVALSHA; EVAL when the server does not know it yet, after a
   * restart or SCRIPT FLUSH).
   */
  evalScript(script: RedisScript, keys: string[], args: string[]): Promise<unknown>;
  /** Resolves when Redis answers PING. */
  ping(): Promise<void>;
  close(): void;
}

function clientFor(url: RedisUrl): RedisClient {
  return new Bun.RedisClient(url.href, {
    connectionTimeout: REDIS_CONNECT_TIMEOUT_MS,
    autoReconnect: false,
    // Queued commands would wait for a reconnect that may never come: while disconnected, fail instead.
    enableOfflineQueue: false,
  });
}

/** `promise`, or a RedisUnavailable rejection after `ms` (`onTimeout` runs first). */
function bounded<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new RedisUnavailable("REDIS_TIMEOUT", `Redis did not answer ${what} within ${ms} ms`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const isNoScript = (error: unknown) => error instanceof Error && error.message.startsWith("NOSCRIPT");

/**
 * One connection for commands (Bun pipelines concurrent ones on it), opened at the first call and again at
 * the first call after it was lost.
 */
export function openRedis(url: RedisUrl): RedisConnection {
  let client: RedisClient | undefined;
  let connecting: Promise<RedisClient> | undefined;
  let retryAt = 0;
  let retryMs = RETRY_MIN_MS;
  let closed = false;

  const drop = (which: RedisClient | undefined) => {
    which?.close();
    if (client === which) client = undefined;
  };

  const connect = async (): Promise<RedisClient> => {
    drop(client);
    const fresh = clientFor(url);
    try {
      await bounded(fresh.connect(), REDIS_CONNECT_TIMEOUT_MS, "a connection");
    } catch (error) {
      fresh.close();
      retryAt = performance.now() + retryMs;
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      throw new RedisUnavailable("REDIS_UNREACHABLE", `cannot connect to Redis: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (closed) {
      fresh.close();
      throw new RedisUnavailable("REDIS_CLOSED", "the Redis connection was closed");
    }
    client = fresh;
    retryMs = RETRY_MIN_MS;
    return fresh;
  };

  const ready = (): RedisClient | Promise<RedisClient> => {
    if (client?.connected) return client;
    if (closed) throw new RedisUnavailable("REDIS_CLOSED", "the Redis connection was closed");
    if (connecting) return connecting;
    if (performance.now() < retryAt) throw new RedisUnavailable("REDIS_UNREACHABLE", "Redis is unreachable (reconnecting)");
    connecting = connect().finally(() => (connecting = undefined));
    return connecting;
  };

  const send = async (command: string, args: string[]): Promise<unknown> => {
    const got = ready();
    const on = got instanceof Promise ? await got : got;
    // A command that gets no answer in time leaves the connection suspect (a stopped server, a silent
    // network): it is dropped, so the next call connects afresh instead of queueing behind it.
    return bounded(on.send(command, args), REDIS_COMMAND_TIMEOUT_MS, command, () => drop(on));
  };

  return {
    send,
    async evalScript(script, keys, args) {
      const rest = [String(keys.length), ...keys, ...args];
      try {
        return await send("EVALSHA", [script.sha, ...rest]);
      } catch (error) {
        if (!isNoScript(error)) throw error;
        return send("EVAL", [script.source, ...rest]);
      }
    },
    async ping() {
      await send("PING", []);
    },
    close() {
      closed = true;
      drop(client);
    },
  };
}

export interface RedisSubscription {
  /** Resolves once subscribed the first time; rejects if that fails within the bounds. */
  readonly ready: Promise<void>;
  close(): void;
}

/** Every HEARTBEAT_MS the subscriber is pinged: a connection that died silently is noticed within about two. */
const HEARTBEAT_MS = 1000;

/**
 * `channel` followed on a connection of its own (a subscribed connection takes no other commands), for as
 * long as it is open: `lost` when the connection is gone (messages may be missed from then on), `resumed`
 * when it is subscribed again, with messages flowing as before.
 */
export function openRedisSubscription(
  url: RedisUrl,
  channel: string,
  handlers: { message(text: string): void; lost(): void; resumed(): void },
): RedisSubscription {
  let closed = false;
  let current: RedisClient | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let settleFirst: { resolve(): void; reject(error: unknown): void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (settleFirst = { resolve, reject }));
  // The first attempt decides `ready`; the loop goes on either way, until closed.
  ready.catch(() => {});

  const lose = (which: RedisClient) => {
    if (current !== which) return;
    current = undefined;
    clearInterval(heartbeat);
    which.close();
    if (closed) return;
    handlers.lost();
    retry(RETRY_MIN_MS);
  };

  const retry = (delayMs: number) => {
    if (!closed) setTimeout(() => void attempt(delayMs), delayMs).unref();
  };

  const attempt = async (delayMs: number) => {
    if (closed) return;
    const fresh = clientFor(url);
    try {
      await bounded(fresh.connect(), REDIS_CONNECT_TIMEOUT_MS, "a connection");
      await bounded(
        fresh.subscribe(channel, (text) => handlers.message(text)),
        REDIS_COMMAND_TIMEOUT_MS,
        "SUBSCRIBE",
      );
    } catch (error) {
      fresh.close();
      if (settleFirst) {
        settleFirst.reject(new RedisUnavailable("REDIS_UNREACHABLE", `cannot subscribe on Redis: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
        settleFirst = undefined;
      }
      retry(Math.min(delayMs * 2, RETRY_MAX_MS));
      return;
    }
    if (closed) {
      fresh.close();
      return;
    }
    current = fresh;
    fresh.onclose = () => lose(fresh);
    heartbeat = setInterval(() => {
      bounded(fresh.ping(), REDIS_COMMAND_TIMEOUT_MS, "PING").catch(() => lose(fresh));
    }, HEARTBEAT_MS);
    heartbeat.unref();
    if (settleFirst) {
      settleFirst.resolve();
      settleFirst = undefined;
    } else {
      handlers.resumed();
    }
  };

  void attempt(RETRY_MIN_MS);
  return {
    ready,
    close() {
      closed = true;
      clearInterval(heartbeat);
      current?.close();
      current = undefined;
    },
  };
}
