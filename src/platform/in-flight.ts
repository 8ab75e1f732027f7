/**
 * Work on its way, by key: the first caller's promise, which those who come while it runs share instead of
 * starting the same work again (one question to a store over the network for many requests). A promise is
 * forgotten once it settles, before anything chained on it later runs: a caller that waited and asks
 * again finds nothing in flight and starts afresh.
 */
export class InFlight<K, V> {
  private readonly pending = new Map<K, Promise<V>>();

  get(key: K): Promise<V> | undefined {
    return this.pending.get(key);
  }

  has(key: K): boolean {
    return this.pending.has(key);
  }

  /** `promise` in flight for `key` until it settles (its rejection is the callers' to handle); returns it. */
  track(key: K, promise: Promise<V>): Promise<V> {
    this.pending.set(key, promise);
    // Chained first, so it runs before any caller chained on `promise` afterwards.
    const settled = () => {
      if (this.pending.get(key) === promise) this.pending.delete(key);
    };
    promise.then(settled, settled);
    return promise;
  }
}
