import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import type { AttemptContext, AttemptOutcome, BeforeSendDecision, DeliveryHooks } from '#webhooks';
import { MeteringService } from '#agent-billing';
import { tenantDecider } from '../tenant.decider.js';
import { tenantStream } from '../workspace.events.js';

export const DELIVERY_METER = 'deliver.workspace.webhook';
export const HELD_FOR_CREDITS = 'insufficient_credits';

/**
 * `deliver.workspace.webhook` around each push of a workspace subscription (ADR 0062):
 * - before: charge the tenant's account once per attempt (keyed by the attempt, so the same
 *   attempt tried again after a crash is not charged twice); no credits → hold the delivery;
 * - after the attempt is recorded: keep the charge for a delivered push, refund a failed one,
 *   so the tenant pays for successful deliveries only;
 * - after a hold: if the balance covers a push after all (credits came between the refusal and
 *   the hold), the engine releases the tenant's holds at once.
 */
@Injectable()
export class WorkspaceDeliveryMeter implements DeliveryHooks {
  constructor(
    private readonly metering: MeteringService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async beforeSend(attempt: AttemptContext): Promise<BeforeSendDecision> {
    const accountId = await this.accountOf(attempt.owner.id);
    if (!accountId) return { send: false, error: 'tenant_not_found' };
    const charge = await this.metering.chargeOnce(
      { accountId, keyId: null },
      DELIVERY_METER,
      attempt.attemptKey,
      attempt.deliveryId,
    );
    return charge.charged ? { send: true } : { send: false, hold: HELD_FOR_CREDITS };
  }

  async afterHold(attempt: AttemptContext): Promise<boolean> {
    const accountId = await this.accountOf(attempt.owner.id);
    if (!accountId) return false;
    return this.metering.canPay(accountId, DELIVERY_METER);
  }

  async afterAttempt(attempt: AttemptContext, outcome: AttemptOutcome): Promise<void> {
    const accountId = await this.accountOf(attempt.owner.id);
    if (!accountId) return;
    const refund = !outcome.succeeded;
    await this.metering.settle(accountId, attempt.attemptKey, refund, refund ? 'delivery_failed' : 'delivered');
  }

  /** The tenant's account (its credits); a tenant never changes account. */
  private async accountOf(tenantId: string): Promise<string | null> {
    const { state } = await loadState(this.events, tenantStream(tenantId), tenantDecider);
    return state.status === 'active' ? state.ownerAccountId : null;
  }
}
