import type { ProjectionRunner } from '#projections';

/** Longest wait for the read model to catch up before reading due deliveries (then again). */
export const CATCH_UP_MS = 5000;

/**
 * Whether the channel's read model reached every position this dispatcher knows of: the head
 * when it started, what it appended, what it was told about. Due deliveries are read only then:
 * a model behind the head may not show a disable or a delete yet (after a restart it replays
 * what the previous process did), and sending from it broke the schedule (found by
 * `npm run chaos webhooks-flapping`: attempts while the webhook was disabled).
 */
export class ReadModelCatchUp {
  /** Highest position known: the read model must reach it. */
  private wanted = 0;
  /** Since when the read model has been found behind (real ms); null while caught up. */
  private behindSince: number | null = null;

  constructor(
    private readonly runner: Pick<ProjectionRunner, 'waitFor'>,
    private readonly projection: string,
    private readonly warn: (message: string) => void,
  ) {}

  get wantedPosition(): number {
    return this.wanted;
  }

  /** A position appended or seen: the read model must pass it before the next read. */
  note(position: number): void {
    if (position > this.wanted) this.wanted = position;
  }

  /** Waits up to CATCH_UP_MS; false (and one warning per stretch behind) when it did not get there. */
  async caughtUp(): Promise<boolean> {
    try {
      await this.waitFor(this.wanted, CATCH_UP_MS);
      this.behindSince = null;
      return true;
    } catch {
      if (this.behindSince === null) {
        this.behindSince = performance.now();
        this.warn(`the read model is behind position ${this.wanted}; no due deliveries are read until it catches up`);
      }
      return false;
    }
  }

  /** Waits until the read model passed `position`; throws when `timeoutMs` ran out. */
  async waitFor(position: number, timeoutMs: number): Promise<void> {
    if (position <= 0) return;
    await this.runner.waitFor(position, { projections: [this.projection], timeoutMs });
  }
}
