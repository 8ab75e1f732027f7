/**
 * What a store method returns: a value where the store answers synchronously (SQLite, in this process),
 * a promise where it answers over the network (PostgreSQL, Redis). Callers on the hot path go on
 * synchronously when they can, so the embedded store never pays for a promise and a microtask per call.
 */
export type MaybePromise<T> = T | Promise<T>;

export const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => value instanceof Promise;

/** `next(value)`, at once when `value` is there already, else when it arrives. */
export function then<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}
