import { type DynamicModule, Global, Logger, Module, type Type } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, type LoadedSecretBox, loadSecretBox, SECRET_BOX } from '#kernel';
import { ProjectionsModule } from '#projections';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { CreateWebhookHandler } from './commands/create-webhook/create-webhook.handler.js';
import { DeleteWebhookHandler } from './commands/delete-webhook/delete-webhook.handler.js';
import { RedeliverDeliveryHandler } from './commands/redeliver-delivery/redeliver-delivery.handler.js';
import { SendTestEventHandler } from './commands/send-test-event/send-test-event.handler.js';
import { UpdateWebhookHandler } from './commands/update-webhook/update-webhook.handler.js';
import type { DeliveryHooks } from './dispatch/delivery-hooks.js';
import { WebhookDispatchers } from './dispatch/webhook-dispatchers.js';
import type { WebhookChannel } from './engine/channel.js';
import { WebhookSecrets } from './engine/secrets.store.js';
import { WebhookChannels } from './engine/webhook-channels.js';
import { WebhookReadModel } from './engine/webhook-read-model.js';
import { webhooksProjection } from './engine/webhooks.projection.js';
import { GetDeliveryRequestHandler } from './queries/get-delivery-request/get-delivery-request.handler.js';
import { GetWebhookHandler } from './queries/get-webhook/get-webhook.handler.js';
import { ListDeliveriesHandler } from './queries/list-deliveries/list-deliveries.handler.js';
import { ListWebhooksHandler } from './queries/list-webhooks/list-webhooks.handler.js';
import { type Resolver } from './sending/guarded-lookup.js';
import { WebhookSender } from './sending/webhook-sender.js';

/** Replaces DNS resolution of webhook hosts (tests: a name that resolves to a private address). */
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/**
 * The secrets store, sealing with SVC_SECRETS_KEY or the data directory's key file. With
 * MongoDB, processes on other machines share the secrets but not that file: warn.
 */
export function webhookSecretsFor(
  config: AppConfig,
  documents: DocumentStore,
  { box, keyFile }: LoadedSecretBox = loadSecretBox(config),
): WebhookSecrets {
  if (keyFile && config.mongoUrl) {
    new Logger('WebhookSecrets').warn(
      `webhook secrets are sealed with the key in ${keyFile}; every process using this MongoDB needs the same key: set SVC_SECRETS_KEY (key id ${box.currentKeyId})`,
    );
  }
  return new WebhookSecrets(documents, box);
}

let channelRegistrations = 0;

/**
 * The webhook delivery engine, shared by every channel: the sender (signing, SSRF
 * guard, timeouts), secrets, leases, dispatchers, and the channel-generic commands and queries
 * (CreateWebhookCommand, UpdateWebhookCommand, DeleteWebhookCommand, SendTestEventCommand,
 * RedeliverDeliveryCommand, ListWebhooksQuery, GetWebhookQuery, ListDeliveriesQuery; each takes
 * the channel name and the owner). Global; a feature adds its channel with
 * `WebhookChannelModule.forChannel`.
 */
@Global()
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [
    WebhookChannels,
    WebhookReadModel,
    { provide: WebhookSecrets, useFactory: webhookSecretsFor, inject: [APP_CONFIG, DOCUMENT_STORE, SECRET_BOX] },
    {
      provide: WebhookSender,
      useFactory: (config: AppConfig, resolver?: Resolver) =>
        new WebhookSender({
          allowPrivate: config.webhookAllowPrivate,
          timeoutMs: config.webhookTimeoutMs,
          maxSocketsPerHost: config.webhookConcurrencyPerHost,
          ...(resolver ? { resolver } : {}),
        }),
      inject: [APP_CONFIG, { token: WEBHOOK_RESOLVER, optional: true }],
    },
    WebhookDispatchers,
    CreateWebhookHandler,
    UpdateWebhookHandler,
    DeleteWebhookHandler,
    SendTestEventHandler,
    RedeliverDeliveryHandler,
    ListWebhooksHandler,
    GetWebhookHandler,
    ListDeliveriesHandler,
    GetDeliveryRequestHandler,
  ],
  exports: [WebhookChannels, WebhookReadModel, WebhookSecrets, WebhookSender, WebhookDispatchers],
})
export class WebhookEngineModule {}

/**
 * Registers a channel with the engine: its projection (`webhooks-{name}`: webhooks,
 * subscriptions, fan-out, deliveries) and its dispatcher, with optional hooks around each push
 * (a class implementing DeliveryHooks, e.g. a meter; created here, its dependencies resolved
 * from global modules).
 */
@Module({})
export class WebhookChannelModule {
  static forChannel(channel: WebhookChannel, options: { hooks?: Type<DeliveryHooks> } = {}): DynamicModule {
    const token = Symbol(`webhook-channel#${++channelRegistrations}:${channel.name}`);
    return {
      module: WebhookChannelModule,
      imports: [WebhookEngineModule, ProjectionsModule.forFeature([webhooksProjection(channel)])],
      providers: [
        ...(options.hooks ? [options.hooks] : []),
        {
          provide: token,
          useFactory: (channels: WebhookChannels, hooks?: DeliveryHooks) => channels.add(channel, hooks),
          inject: [WebhookChannels, ...(options.hooks ? [options.hooks] : [])],
        },
      ],
    };
  }
}
