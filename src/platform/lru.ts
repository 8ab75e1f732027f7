/**
 * A small least-recently-used cache bounded by a total weight (items, bytes...). Map keeps insertion
 * order, so re-inserting an entry makes it the most recently used. A hit on an entry that is already
 * among the most recent half re-inserts nothing: on a hot path most hits are of such entries, and
 * moving them would cost two map operations for no change in what gets evicted first.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number; used: number }>();
  private totalWeight = 0;
  /** Counts insertions and moves: an entry's `used` tells how far from the recent end it is. */
  private clock = 0;

  constructor(private readonly maxWeight: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.clock - entry.used > this.entries.size / 2) {
      this.entries.delete(key);
      entry.used = ++this.clock;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V, weight = 1): void {
    if (weight > this.maxWeight) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.totalWeight -= previous.weight;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, weight, used: ++this.clock });
    this.totalWeight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.totalWeight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.totalWeight -= entry.weight;
    }
  }

  /**
   * Adds `extra` to an entry's weight (a value that grew after it was stored), evicting the least recently
   * used others as `set` does; nothing when the entry is gone.
   */
  grow(key: K, extra: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.weight += extra;
    this.totalWeight += extra;
    for (const [oldest, other] of this.entries) {
      if (this.totalWeight <= this.maxWeight) break;
      if (other === entry) continue;
      this.entries.delete(oldest);
      this.totalWeight -= other.weight;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.totalWeight;
  }
}

/**
 * What a cache entry costs in memory, roughly but never less: a string at two bytes a character (engines
 * keep one-byte strings for Latin-1 text, two for the rest), plus the map entry, its record and the string
 * and array headers (measured: about 250 bytes an entry in JavaScriptCore).
 */
export const ENTRY_OVERHEAD_BYTES = 256;
export const stringBytes = (text: string): number => 2 * text.length;
