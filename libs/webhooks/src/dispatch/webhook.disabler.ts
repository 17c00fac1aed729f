import { decideAndAppend, type EventStore } from '#eventstore';
import type { Clock } from '#kernel';
import type { ReadonlyCollection } from '#projections';
import { webhookDecider } from '../engine/webhook.decider.js';
import { webhookStream } from '../engine/webhook.events.js';
import type { WebhookDoc } from '../engine/webhook-docs.js';

/** How long this dispatcher remembers a webhook it disabled, ahead of the read model. */
const LOCAL_DISABLE_MS = 5000;

export interface DisableRequest {
  webhookId: string;
  deliveryId: string;
  reason: 'delivery_failed' | 'gone';
  statusCode: number | null;
  startedAt: string;
}

/**
 * D12: the fifth automatic failure of a delivery, or a 410, disables its webhook (through its
 * decider, so a second request changes nothing). Until the read model shows it, this
 * dispatcher holds the webhook's other automatic attempts itself.
 */
export class WebhookDisabler {
  private readonly disabledLocally = new Map<string, { at: number; clockMs: number }>();

  constructor(
    private readonly events: EventStore,
    private readonly clock: Clock,
    private readonly webhooks: ReadonlyCollection<WebhookDoc>,
    private readonly log: { warn(message: string): void },
    /** Told the position of each WebhookDisabled appended (the read model must reach it). */
    private readonly appended: (position: number) => void,
  ) {}

  async disable(request: DisableRequest): Promise<void> {
    this.disabledLocally.set(request.webhookId, { at: performance.now(), clockMs: this.clock.now().getTime() });
    const result = await decideAndAppend(this.events, webhookStream(request.webhookId), webhookDecider, {
      type: 'DisableWebhook',
      reason: request.reason,
      deliveryId: request.deliveryId,
      statusCode: request.statusCode,
      attemptStartedAt: new Date(request.startedAt),
      now: this.clock.now(),
    });
    if (result.position !== null) {
      this.appended(result.position);
      this.log.warn(
        `webhook ${request.webhookId} disabled: delivery ${request.deliveryId} ${request.reason === 'gone' ? 'got 410 Gone' : 'failed 5 times'}`,
      );
    }
  }

  /** Final failures whose WebhookDisabled is not in the log yet (a crash in between): append it now. */
  async reconcile(channel: string): Promise<void> {
    const pending = await this.webhooks.find({ disable_requested_at: { $gt: '' } }, { limit: 100 });
    for (const w of pending.items) {
      const r = w.disable_request;
      if (!r) continue;
      await this.disable({
        webhookId: w.id,
        deliveryId: r.delivery_id,
        reason: r.reason,
        statusCode: r.status_code,
        startedAt: r.attempt_started_at,
      }).catch((error: unknown) =>
        this.log.warn(
          `dispatcher ${channel}: disabling ${w.id}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  /** Disabled by this dispatcher and the read model does not show it yet (nor a re-enabling since). */
  disabledHere(webhook: WebhookDoc): boolean {
    const local = this.disabledLocally.get(webhook.id);
    if (!local) return false;
    if (webhook.re_enabled_at !== null && Date.parse(webhook.re_enabled_at) >= local.clockMs) {
      this.disabledLocally.delete(webhook.id);
      return false;
    }
    return true;
  }

  prune(now: number): void {
    for (const [id, d] of this.disabledLocally) if (now - d.at > LOCAL_DISABLE_MS) this.disabledLocally.delete(id);
  }
}
