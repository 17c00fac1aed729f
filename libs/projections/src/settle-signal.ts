export const TICK = Symbol('tick');
export type Tick = typeof TICK;
/** Resolves after everything already runnable: what an iterator has at hand arrives first. */
export const afterPending = (): Promise<Tick> => new Promise((resolve) => setImmediate(() => resolve(TICK)));
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Waits for a promise in rounds of at most `ms` (TICK when a round ends first). Unlike racing
 * the promise again each round, this adds one reaction to it in all, however long it stays
 * pending (a quiet projection waits for hours).
 */
export function settleSignal<T>(promise: Promise<T>): { next(ms: number): Promise<T | Tick>; wake(): void } {
  let outcome: { value: T } | { error: unknown } | null = null;
  let notify: (() => void) | null = null;
  promise.then(
    (value) => {
      outcome = { value };
      notify?.();
    },
    (error: unknown) => {
      outcome = { error };
      notify?.();
    },
  );
  return {
    /** Ends the current round early (TICK, unless the promise settled). */
    wake() {
      notify?.();
    },
    next(ms) {
      return new Promise<T | Tick>((resolve, reject) => {
        const settle = () => {
          clearTimeout(timer);
          notify = null;
          const o = outcome as { value: T } | { error: unknown } | null;
          if (!o) resolve(TICK);
          else if ('value' in o) resolve(o.value);
          else reject(o.error);
        };
        const timer = setTimeout(settle, ms);
        notify = settle;
        if (outcome) settle();
      });
    },
  };
}
