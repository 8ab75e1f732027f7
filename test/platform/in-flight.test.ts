import { expect, test } from "bun:test";
import { InFlight } from "../../src/platform/in-flight";

test("a promise is shared while in flight and forgotten once settled, before the callers chained on it run", async () => {
  const inFlight = new InFlight<string, number>();
  let resolve!: (value: number) => void;
  const work = inFlight.track("a", new Promise<number>((r) => (resolve = r)));
  expect(inFlight.get("a")).toBe(work);
  expect(inFlight.has("b")).toBe(false);
  // A caller that waited and looks again finds nothing in flight: it would start afresh.
  const seenByWaiter = work.then(() => inFlight.has("a"));
  resolve(7);
  expect(await work).toBe(7);
  expect(await seenByWaiter).toBe(false);
});

test("a rejected promise is forgotten too, and its rejection stays the caller's", async () => {
  const inFlight = new InFlight<string, number>();
  const failing = inFlight.track("a", Promise.reject(new Error("store down")));
  await expect(failing).rejects.toThrow("store down");
  expect(inFlight.has("a")).toBe(false);
});

test("an older promise settling does not forget a newer one for the same key", async () => {
  const inFlight = new InFlight<string, number>();
  let resolveOld!: (value: number) => void;
  const older = inFlight.track("a", new Promise<number>((r) => (resolveOld = r)));
  const newer = inFlight.track("a", new Promise<number>(() => {}));
  resolveOld(1);
  await older;
  expect(inFlight.get("a")).toBe(newer);
});
