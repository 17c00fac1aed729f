import type { DeliveryLeases } from './leases.js';

/** How often final failures whose WebhookDisabled is missing are looked for (real ms). */
export const RECONCILE_EVERY_MS = 30_000;
/** How often attempts sent and never recorded (a process killed meanwhile) are looked for (real ms). */
export const RECOVER_EVERY_MS = 5000;
/** How often expired leases are swept (real ms). */
export const SWEEP_EVERY_MS = 60_000;

export interface UpkeepOptions {
  /** Final failures whose WebhookDisabled is not in the log yet (a crash in between): append it now. */
  reconcileDisables(): Promise<void>;
  /** Records attempts sent and never recorded (InterruptedAttemptsRecovery). */
  recoverInterrupted(): Promise<void>;
  /** Forget what the read model has had time to show (each part's own memory), at real time `now`. */
  prune(now: number): void;
  leases: Pick<DeliveryLeases, 'sweep'>;
  /** Real ms (performance.now() unless a test moves it). */
  now?: () => number;
}

/**
 * The dispatcher's chores besides sending, each on its own period: reconciling disables,
 * recovering interrupted attempts, forgetting what the read model shows by now, and sweeping
 * expired leases. `drain` runs the first two every time, the loop when their period is up.
 */
export class DispatchUpkeep {
  private lastReconcile = -Infinity;
  private lastRecovery = -Infinity;
  private lastSweep: number;
  private readonly now: () => number;

  constructor(private readonly options: UpkeepOptions) {
    this.now = options.now ?? (() => performance.now());
    this.lastSweep = this.now();
  }

  /** Runs the chores whose period is up. */
  async whenDue(): Promise<void> {
    if (this.now() - this.lastReconcile > RECONCILE_EVERY_MS) await this.reconcileDisables();
    if (this.now() - this.lastRecovery > RECOVER_EVERY_MS) await this.recoverInterrupted();
  }

  async reconcileDisables(): Promise<void> {
    this.lastReconcile = this.now();
    await this.options.reconcileDisables();
  }

  async recoverInterrupted(): Promise<void> {
    this.lastRecovery = this.now();
    await this.options.recoverInterrupted();
  }

  /** Before each read of due deliveries. The lease sweep is not awaited: a failed one is retried later. */
  prune(): void {
    const t = this.now();
    this.options.prune(t);
    if (t - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = t;
      void this.options.leases.sweep().catch(() => undefined);
    }
  }
}
