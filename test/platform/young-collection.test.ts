import { expect, test } from "bun:test";
import { collectYoungWhileServing } from "../../src/platform/http/young-collection";

/**
 * The serving process's young-generation collections (src/platform/http/young-collection.ts): one per interval while
 * requests are answered, none while idle, none after stop. Its effect on memory is a bench/ figure.
 */
test("collects once per interval after answers, never while idle, and not after stop", async () => {
  let collections = 0;
  const young = collectYoungWhileServing(20, () => collections++);
  try {
    await Bun.sleep(100);
    expect(collections).toBe(0);
    for (let i = 0; i < 1000; i++) young.answered();
    await Bun.sleep(60);
    expect(collections).toBe(1);
    await Bun.sleep(100);
    expect(collections).toBe(1);
    young.answered();
    await Bun.sleep(60);
    expect(collections).toBe(2);
  } finally {
    young.stop();
  }
  young.answered();
  await Bun.sleep(60);
  expect(collections).toBe(2);
});

test("the whole heap is collected on a tick once it has grown past its size after the last whole collection, and only then", async () => {
  let heap = 100;
  const whole: number[] = [];
  const young = collectYoungWhileServing(20, () => {}, { heapBytes: () => heap, collect: () => whole.push(heap), growthBytes: 50 });
  try {
    young.answered();
    heap = 150;
    await Bun.sleep(60);
    expect(whole).toEqual([]);
    young.answered();
    heap = 151;
    await Bun.sleep(60);
    expect(whole).toEqual([151]);
    // Measured again after it: the next one waits for growth past 151 + 50, not 100 + 50.
    young.answered();
    heap = 200;
    await Bun.sleep(60);
    expect(whole).toEqual([151]);
    // Grown, but idle: nothing until a request is answered.
    heap = 400;
    await Bun.sleep(60);
    expect(whole).toEqual([151]);
    young.answered();
    await Bun.sleep(60);
    expect(whole).toEqual([151, 400]);
  } finally {
    young.stop();
  }
});

test("the default collection is JavaScriptCore's eden collection, and it runs in this runtime", async () => {
  const young = collectYoungWhileServing(10);
  try {
    young.answered();
    await Bun.sleep(50);
  } finally {
    young.stop();
  }
  const { edenGC } = await import("bun:jsc");
  expect(edenGC()).toBeGreaterThan(0);
});
