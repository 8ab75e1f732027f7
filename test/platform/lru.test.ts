import { describe, expect, test } from "bun:test";
import { LruCache } from "../../src/platform/lru";

describe("LruCache", () => {
  test("evicts the least recently used entries once over its weight", () => {
    const cache = new LruCache<string, number>(10);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i, 2);
    expect(cache.weight).toBe(10);
    cache.set("k5", 5, 4);
    expect([cache.get("k0"), cache.get("k1"), cache.get("k2")]).toEqual([undefined, undefined, 2]);
    expect(cache.weight).toBe(10);
  });

  test("an entry that keeps being read survives any number of newer ones", () => {
    const cache = new LruCache<number, number>(100);
    cache.set(-1, -1);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i);
      expect(cache.get(-1)).toBe(-1);
    }
    expect(cache.size).toBe(100);
    expect(cache.get(9_899)).toBeUndefined();
    expect(cache.get(9_999)).toBe(9_999);
  });

  test("an entry that grows pushes out the least recently used others, never itself; a gone entry does not grow", () => {
    const cache = new LruCache<string, number>(10);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i, 2);
    cache.grow("k0", 3);
    expect(cache.weight).toBe(9);
    expect([cache.get("k0"), cache.get("k1"), cache.get("k2")]).toEqual([0, undefined, undefined]);
    cache.grow("k1", 100);
    expect(cache.weight).toBe(9);
  });

  test("a value heavier than the whole cache is not kept; replacing a key replaces its weight", () => {
    const cache = new LruCache<string, string>(8);
    cache.set("big", "x", 9);
    expect(cache.get("big")).toBeUndefined();
    cache.set("a", "1", 5);
    cache.set("a", "2", 3);
    expect([cache.get("a"), cache.weight, cache.size]).toEqual(["2", 3, 1]);
  });

  test("delete and clear give their weight back", () => {
    const cache = new LruCache<string, number>(10);
    cache.set("a", 1, 4);
    cache.set("b", 2, 4);
    cache.delete("a");
    cache.delete("missing");
    expect([cache.get("a"), cache.get("b"), cache.weight]).toEqual([undefined, 2, 4]);
    cache.clear();
    expect([cache.size, cache.weight]).toEqual([0, 0]);
  });
});
