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
