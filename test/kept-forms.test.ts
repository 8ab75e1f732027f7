import { expect, test } from "bun:test";
import { KeptForms } from "../src/catalog/kept-forms";

const form = (seed: number, bytes: number) => Uint8Array.from({ length: bytes }, (_, i) => (seed * 31 + i) & 0xff);

test("a kept form reads back byte for byte; a food never kept is undefined; a second keep changes nothing", () => {
  const kept = new KeptForms();
  expect(kept.get(1001)).toBeUndefined();
  kept.keep(1001, form(1, 2300));
  kept.keep(1001, form(2, 10));
  expect(kept.get(1001)).toEqual(form(1, 2300));
  expect(kept.get(1002)).toBeUndefined();
});

test("thousands of forms across chunks, one larger than a chunk: each reads back intact, and memory is the forms' bytes plus at most a chunk", () => {
  const kept = new KeptForms();
  const sizes = new Map<number, number>();
  let total = 0;
  for (let id = 1000; id < 9789; id++) {
    const bytes = 500 + ((id * 7919) % 4000);
    sizes.set(id, bytes);
    total += bytes;
    kept.keep(id, form(id, bytes));
  }
  kept.keep(99999, form(5, 3 * 1024 * 1024));
  total += 3 * 1024 * 1024;
  for (const [id, bytes] of sizes) expect(kept.get(id)).toEqual(form(id, bytes));
  expect(kept.get(99999)).toEqual(form(5, 3 * 1024 * 1024));
  expect(kept.bytes).toBeGreaterThanOrEqual(total);
  // Each chunk wastes at most one form's worth at its end, and the last chunk its unused rest.
  expect(kept.bytes).toBeLessThan(total + (kept.bytes / (1024 * 1024)) * 4500 + 1024 * 1024);
});

test("a view sent is not disturbed by forms kept later", () => {
  const kept = new KeptForms();
  kept.keep(1, form(1, 1000));
  const view = kept.get(1)!;
  for (let id = 2; id < 3000; id++) kept.keep(id, form(id, 900));
  expect(view).toEqual(form(1, 1000));
});
