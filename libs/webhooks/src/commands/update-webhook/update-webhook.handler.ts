import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { secretIdFor, WebhookSecrets } from '../../engine/secrets.store.js';
import { webhookDecider } from '../../engine/webhook.decider.js';
import { webhookStream } from '../../engine/webhook.events.js';
import { WebhookChannels } from '../../engine/webhook-channels.js';
import { checkWebhookInput, urlPolicyOf } from '../../engine/webhook-input.js';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import type { WebhookDoc } from '../../engine/webhook-docs.js';
import { UpdateWebhookCommand } from './update-webhook.command.js';

/**
 * url, events and secret change together in one WebhookUpdated (a new secret gets a new
 * `secret_id`, stored first); `active: true` on a disabled webhook adds WebhookReEnabled, which
 * resets its failure count; `active: false` disables it.
 */
@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand, WebhookDoc> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly channels: WebhookChannels,
    private readonly secrets: WebhookSecrets,
    private readonly reads: WebhookReadModel,
  ) {}

  async execute({ input }: UpdateWebhookCommand): Promise<WebhookDoc> {
    const { channel } = this.channels.get(input.channel);
    const { events } = checkWebhookInput(channel, urlPolicyOf(this.config), {
      url: input.url,
      events: input.events,
      secret: input.secret,
    });
    const stream = webhookStream(input.webhookId);
    const now = this.clock.now();
    let secretId: string | undefined;
    if (input.secret !== undefined) {
      // Refuse unknown or foreign webhooks before storing anything for them.
      const { state } = await loadState(this.events, stream, webhookDecider);
      webhookDecider.decide({ type: 'UpdateWebhook', owner: input.owner, now }, state);
      secretId = secretIdFor(input.webhookId, this.ids.ulid());
      await this.secrets.put(secretId, input.webhookId, input.secret, now);
    }
    const { position } = await decideAndAppend(this.events, stream, webhookDecider, {
      type: 'UpdateWebhook',
      owner: input.owner,
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(events !== undefined ? { events } : {}),
      ...(secretId !== undefined ? { secretId } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      now,
    });
    await this.reads.waitFor(channel.name, position);
    return this.reads.webhook(channel.name, input.owner, input.webhookId);
  }
}
