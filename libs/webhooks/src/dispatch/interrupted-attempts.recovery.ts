import type { ReadonlyCollection } from '#projections';
import type { DeliveryDoc } from '../engine/webhook-docs.js';
import { parseAttemptKey } from './attempt-keys.js';
import type { DeliveryLeases } from './leases.js';

/** Interrupted attempts looked at per pass. */
export const RECOVER_BATCH = 200;

export interface RecoveryOptions {
  leases: Pick<DeliveryLeases, 'interrupted'>;
  deliveries: Pick<ReadonlyCollection<DeliveryDoc>, 'get'>;
  /** Records the attempt behind `key` with an unknown outcome (AttemptRunner.recover). */
  recover(doc: DeliveryDoc, key: string): Promise<void>;
  /** A delivery this dispatcher is running now: its lease is its own, not an interrupted one. */
  isInFlight(deliveryId: string): boolean;
  isStopping(): boolean;
  warn(message: string): void;
}

/**
 * Attempts sent by a process that stopped before recording them (ADR 0070): each recorded now
 * with an unknown outcome, whatever its delivery's state (a disable may have cancelled it
 * meanwhile, so it is not due and no refill brings it back).
 */
export class InterruptedAttemptsRecovery {
  constructor(private readonly options: RecoveryOptions) {}

  async pass(): Promise<void> {
    const o = this.options;
    if (o.isStopping()) return;
    for (const key of await o.leases.interrupted(RECOVER_BATCH)) {
      const { deliveryId } = parseAttemptKey(key);
      if (o.isInFlight(deliveryId)) continue;
      try {
        // Null: another channel's delivery (every dispatcher sees every lease), or not projected yet.
        const doc = await o.deliveries.get(deliveryId);
        if (doc) await o.recover(doc, key);
      } catch (error) {
        // The others go on; this one is listed again on the next pass.
        o.warn(
          `interrupted attempt ${key} not recorded yet: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
