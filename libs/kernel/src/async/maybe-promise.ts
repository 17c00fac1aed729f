/**
 * A value now, or later. The access path answers synchronously when everything it needs is in
 * memory (a cached key, in-process counters): no promise is allocated on the path of nearly
 * every request, and Nest does not await a guard that returned a plain value.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `fn(value)` at once when the value is at hand, else when the promise settles. */
export function whenReady<T, R>(value: MaybePromise<T>, fn: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
