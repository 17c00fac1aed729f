import type { AllSubscription, EventStore, RecordedEvent } from './event-store.port.js';

export interface LiveEventWatchOptions {
  events: EventStore;
  /** Event types to hear (the subscription's filter). */
  types: readonly string[];
  /** Each event of those types committed after the watch (re)started, by any process. */
  onEvent(event: RecordedEvent): void;
  /** True once every later event will reach onEvent; false when the watch stopped or failed. */
  onWatching(watching: boolean): void;
  /** A failed subscription, before the watch runs again after `restartMs`. */
  onFailure(error: unknown): void;
  /** Pause before watching again after a failure (default 1 s). */
  restartMs?: number;
}

/**
 * Hears events as they are committed, from now on, by any process sharing the store: the loop
 * behind the revocation watches (API keys, OAuth tokens), which let credentials stay cached while
 * a revocation still reaches every instance within the store's poll interval. While the watch is
 * down (`onWatching(false)`), its users shorten their caches; it subscribes again after
 * `restartMs`, from the head at that moment.
 */
export class LiveEventWatch {
  private subscription: AllSubscription | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(private readonly options: LiveEventWatchOptions) {}

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.subscription?.close();
    await this.running;
  }

  private async run(): Promise<void> {
    const { events, types, onEvent, onWatching, onFailure } = this.options;
    while (!this.stopped) {
      try {
        const subscription = events.subscribeToAll({
          after: await events.headPosition(),
          filter: { eventTypePrefixes: [...types] },
        });
        this.subscription = subscription;
        // Every event after this point reaches onEvent.
        onWatching(true);
        for await (const event of subscription) if (types.includes(event.type)) onEvent(event);
      } catch (error) {
        onFailure(error);
      } finally {
        onWatching(false);
        this.subscription = null;
      }
      if (!this.stopped)
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, this.options.restartMs ?? 1000).unref();
        });
    }
  }
}
