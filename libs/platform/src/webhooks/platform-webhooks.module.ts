import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CreateWebhookController } from './create-webhook/create-webhook.http.controller.js';
import { DeleteWebhookController } from './delete-webhook/delete-webhook.http.controller.js';
import { RedeliverDeliveryController } from './redeliver-delivery/redeliver-delivery.http.controller.js';
import { SendTestEventController } from './send-test-event/send-test-event.http.controller.js';
import { UpdateWebhookController } from './update-webhook/update-webhook.http.controller.js';
import { GetWebhookController } from './get-webhook/get-webhook.http.controller.js';
import { ListDeliveriesController } from './list-deliveries/list-deliveries.http.controller.js';
import { ListWebhooksController } from './list-webhooks/list-webhooks.http.controller.js';
import { WebhookChannelModule } from '#webhooks';
import { platformWebhookChannel } from './platform-events.js';

/**
 * Platform webhooks: `/v1/webhooks` (scope admin, D3) over the delivery engine's
 * `platform` channel, fed by PlatformEventPublished events. Registered once in
 * libs/runtime/src/features.ts; its dispatcher runs where the projections run.
 */
@Module({
  imports: [CqrsModule.forRoot(), WebhookChannelModule.forChannel(platformWebhookChannel)],
  controllers: [
    CreateWebhookController,
    ListWebhooksController,
    GetWebhookController,
    UpdateWebhookController,
    DeleteWebhookController,
    ListDeliveriesController,
    RedeliverDeliveryController,
    SendTestEventController,
  ],
})
export class PlatformWebhooksModule {}
