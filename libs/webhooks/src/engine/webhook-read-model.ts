import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, Errors } from '#kernel';
import { invalidCursor, type ListPage, toListPage } from '#http';
import { ProjectionRunner, ProjectionStore } from '#projections';
import type { WebhookOwner } from './channel.js';
import { webhookNotFound } from './webhook.decider.js';
import { WebhookChannels } from './webhook-channels.js';
import { toDeliveryView, toWebhookView, type DeliveryView, type WebhookView } from './webhook.views.js';
import type { DeliveryDoc, PayloadDoc, WebhookDoc } from './webhook-docs.js';

export const deliveryNotFound = () => Errors.notFound('No such delivery for this webhook.', 'DELIVERY_NOT_FOUND');

/** The query side of a channel: its webhooks and deliveries, owner-scoped; and read-your-writes. */
@Injectable()
export class WebhookReadModel {
  constructor(
    private readonly projections: ProjectionStore,
    private readonly runner: ProjectionRunner,
    private readonly channels: WebhookChannels,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'readYourWritesTimeoutMs'>,
  ) {}

  /** Waits (bounded) until the channel's read model passed `position`. */
  async waitFor(channel: string, position: number | null): Promise<void> {
    if (position === null) return;
    await this.runner.waitFor(position, {
      projections: [this.channels.get(channel).names.projection],
      timeoutMs: this.config.readYourWritesTimeoutMs,
    });
  }

  /** The owner's webhook (not deleted), else 404 — another owner's webhook is as unknown as a missing one. */
  async webhook(channel: string, owner: WebhookOwner, id: string): Promise<WebhookDoc> {
    const { names } = this.channels.get(channel);
    const doc = await this.projections.collection<WebhookDoc>(names.projection, names.webhooks).get(id);
    if (!doc || doc.status === 'deleted' || doc.owner_id !== owner.id || doc.owner_kind !== owner.kind)
      throw webhookNotFound();
    return doc;
  }

  async delivery(channel: string, webhookId: string, deliveryId: string): Promise<DeliveryDoc> {
    const { names } = this.channels.get(channel);
    const doc = await this.projections.collection<DeliveryDoc>(names.projection, names.deliveries).get(deliveryId);
    if (!doc || doc.webhook_id !== webhookId) throw deliveryNotFound();
    return doc;
  }

  /** The envelope an event's deliveries send (the request body), or null when it is gone. */
  async payload(channel: string, eventId: string): Promise<PayloadDoc | null> {
    const { names } = this.channels.get(channel);
    return this.projections.collection<PayloadDoc>(names.projection, names.payloads).get(eventId);
  }

  /** How many webhooks (active or disabled) the owner has, counting at most `atMost + 1`. */
  async countWebhooks(channel: string, owner: WebhookOwner, atMost: number): Promise<number> {
    const { names } = this.channels.get(channel);
    const result = await this.projections
      .collection<WebhookDoc>(names.projection, names.webhooks)
      .find({ owner_id: owner.id, status: { $in: ['active', 'disabled'] } }, { limit: atMost + 1 });
    return result.items.length;
  }

  /** Newest first (D6 keyset pages); `view` shapes each (a channel may show more, e.g. holds). */
  async listWebhooks<T = WebhookView>(
    channel: string,
    owner: WebhookOwner,
    limit: number,
    cursor?: string,
    view: (doc: WebhookDoc) => T = toWebhookView as unknown as (doc: WebhookDoc) => T,
  ): Promise<ListPage<T>> {
    const { names } = this.channels.get(channel);
    const collection = this.projections.collection<WebhookDoc>(names.projection, names.webhooks);
    try {
      // Owner kind is implied by the channel; deleted webhooks are filtered by status.
      const result = await collection.find(
        { owner_id: owner.id, status: { $in: ['active', 'disabled'] } },
        {
          sort: [
            ['created_at', -1],
            ['id', -1],
          ],
          limit,
          ...(cursor ? { after: cursor } : {}),
        },
      );
      return toListPage(result, view);
    } catch (error) {
      if ((error as Error).name === 'InvalidFilterError') throw invalidCursor();
      throw error;
    }
  }

  /** A webhook's deliveries (or, by `{ownerId}`, all of an owner's), newest first (D6 keyset pages). */
  async listDeliveries(
    channel: string,
    of: string | { ownerId: string },
    limit: number,
    cursor?: string,
  ): Promise<ListPage<DeliveryView>> {
    const { names } = this.channels.get(channel);
    const collection = this.projections.collection<DeliveryDoc>(names.projection, names.deliveries);
    try {
      const result = await collection.find(typeof of === 'string' ? { webhook_id: of } : { owner_id: of.ownerId }, {
        sort: [
          ['created_at', -1],
          ['id', -1],
        ],
        limit,
        ...(cursor ? { after: cursor } : {}),
      });
      return toListPage(result, toDeliveryView);
    } catch (error) {
      if ((error as Error).name === 'InvalidFilterError') throw invalidCursor();
      throw error;
    }
  }
}
