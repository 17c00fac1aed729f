/**
 * The dispatcher loop's pause: a timer that a wake-up (new work, a finished send, stop) cuts
 * short. One sleeper at a time: the loop.
 */
export class LoopWakeup {
  private wakeUp: (() => void) | null = null;

  /** Resolves true when the time ran out, false when woken. */
  sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (timedOut: boolean) => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve(timedOut);
      };
      const timer = setTimeout(() => done(true), Math.max(0, ms));
      this.wakeUp = () => done(false);
    });
  }

  /** Ends the current sleep at once; nothing happens when the loop is not asleep. */
  wake(): void {
    this.wakeUp?.();
  }
}
