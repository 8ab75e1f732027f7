import { describe, expect, test } from "bun:test";
import { madeOnFirstUse, onFirstUse } from "../../src/platform/first-use";

describe("onFirstUse", () => {
  test("makes the value at the first call, once", () => {
    let made = 0;
    const value = onFirstUse(() => ({ n: ++made }));
    expect(made).toBe(0);
    expect(value()).toBe(value());
    expect(made).toBe(1);
  });
});

describe("madeOnFirstUse", () => {
  const counted = () => {
    let made = 0;
    const store = madeOnFirstUse(() => {
      made++;
      let count = 0;
      return { add: (n: number) => (count += n), get total() { return count; }, name: "store" };
    });
    return { store, made: () => made };
  };

  test("nothing is made until a member is read", () => {
    const { store, made } = counted();
    const passedAround = { store };
    expect(passedAround.store).toBe(store);
    expect(made()).toBe(0);
    expect(store.add(2)).toBe(2);
    expect(made()).toBe(1);
  });

  test("one object from then on: its state is kept between uses", () => {
    const { store, made } = counted();
    store.add(2);
    const add = store.add;
    add(3);
    expect(store.total).toBe(5);
    expect(made()).toBe(1);
  });

  test("behaves as the made object for keys, `in` and spreading", () => {
    const { store } = counted();
    expect(Object.keys(store).sort()).toEqual(["add", "name", "total"]);
    expect("add" in store).toBe(true);
    expect("missing" in store).toBe(false);
    const copy = { ...store };
    expect(copy.name).toBe("store");
    expect(copy.add(1)).toBe(1);
  });
});
