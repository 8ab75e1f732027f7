/**
 * `make()` run at the first call and its result kept: for what a start need not pay before it answers
 * (a prepared statement of a route's, built by drizzle), paid by the first use instead.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
