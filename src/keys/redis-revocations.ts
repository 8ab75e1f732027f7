import type { RedisUrl } from "../platform/config/config";
import { openRedisSubscription, type RedisConnection } from "../platform/storage/redis";
import type { KeyRevocations } from "./store";

/**
 * Revocations among instances by Redis pub/sub: `onRevoked` publishes the key's hash, and every instance's
 * subscriber queues what it hears for its next `takeRevoked`, a memory read on the request path.
 *
 * Why pub/sub, and not PostgreSQL's LISTEN/NOTIFY: with `--redis-url` every instance already holds a
 * connection to Redis, whatever its state store (SQLite with several workers, or PostgreSQL), and a
 * publish reaches every subscriber at once, with no transaction to commit first and no listening
 * connection taken from a database pool. Pub/sub keeps nothing: a message sent while an instance's
 * subscriber is disconnected is lost to it. That instance is told "all" (it drops its whole key cache)
 * when it notices the loss and again once it is subscribed again; what it cannot notice at once (a
 * silently dead connection, noticed by the heartbeat within about two seconds) is covered by the key
 * cache trusting a key for at most a second (keys/active-keys.ts), the contract's bound.
 */
export interface RedisKeyRevocations extends KeyRevocations {
  close(): void;
}

const NO_NEWS: readonly string[] = Object.freeze([]);
/** An instance that stops taking (idle) must not queue forever: past this many it just takes "all". */
const MAX_QUEUED = 10_000;
/** How long a revocation waits, after Redis has delivered it, for the other subscribers of this host. */
const LOCAL_GRACE_MS = 20;

/**
 * Opened once subscribed (rejects when Redis cannot be reached within the bounds of platform/storage/redis.ts).
 * `redis` publishes; the subscriber has a connection of its own.
 */
export async function openRedisKeyRevocations(url: RedisUrl, redis: RedisConnection, channel: string): Promise<RedisKeyRevocations> {
  // Each message names its sender, so that an instance knows its own when they come back.
  const self = crypto.randomUUID();
  let queue: string[] = [];
  let missed = false;
  let live = false;
  const echoes = new Map<string, () => void>();

  const heard = (keyHash: string) => {
    if (queue.length >= MAX_QUEUED) {
      queue = [];
      missed = true;
    } else {
      queue.push(keyHash);
    }
  };

  const subscription = openRedisSubscription(url, channel, {
    message(text) {
      const colon = text.indexOf(":");
      if (colon < 0) return;
      const sender = text.slice(0, colon);
      const keyHash = text.slice(colon + 1);
      if (sender !== self) return heard(keyHash);
      echoes.get(keyHash)?.();
    },
    lost() {
      live = false;
      missed = true;
    },
    resumed() {
      // Whatever was published between the loss and now went past this instance.
      live = true;
      missed = true;
    },
  });
  try {
    await subscription.ready;
  } catch (error) {
    subscription.close();
    throw error;
  }
  live = true;

  return {
    async onRevoked(keyHash) {
      // This instance at once, whatever Redis does.
      heard(keyHash);
      if (!live) {
        // Nobody's subscriber hears of it through this instance now; publishing may still reach the others.
        await redis.send("PUBLISH", [channel, `${self}:${keyHash}`]).catch(() => {});
        return;
      }
      // Our own message coming back means Redis has handed it to every subscriber; a short grace more lets
      // the subscribers on this host read it before the caller answers, so that a client revoking a key
      // and trying it at once on another worker of this host is refused (elsewhere: within the second).
      const echoed = new Promise<void>((resolve) => {
        echoes.set(keyHash, resolve);
        setTimeout(resolve, 1000).unref();
      });
      try {
        await redis.send("PUBLISH", [channel, `${self}:${keyHash}`]);
        await echoed;
        await Bun.sleep(LOCAL_GRACE_MS);
      } catch {
        // The revocation has committed in the state store: the caller's answer stands. The others drop the
        // key within the cache's second, or sooner as "all" when their subscribers lose Redis too.
      } finally {
        echoes.delete(keyHash);
      }
    },

    takeRevoked() {
      if (missed) {
        missed = false;
        queue = [];
        return "all";
      }
      if (queue.length === 0) return NO_NEWS;
      const taken = queue;
      queue = [];
      return taken;
    },

    close() {
      live = false;
      subscription.close();
      for (const resolve of echoes.values()) resolve();
    },
  };
}
