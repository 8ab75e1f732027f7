/**
 * `make()` run at the first call and its result kept: for what a start need not pay before it answers
 * (a prepared statement of a route's, built by drizzle), paid by the first use instead.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * An object (a store) made by `make()` at the first use of any of its members, and the same object from
 * then on: for a store whose statements and tables a start need not build before it answers. Every member
 * is read through to the made object, so the stand-in behaves as it does (its keys, `in`, spreading).
 */
export function madeOnFirstUse<T extends object>(make: () => T): T {
  const target = onFirstUse(make);
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(target(), key),
  });
}
