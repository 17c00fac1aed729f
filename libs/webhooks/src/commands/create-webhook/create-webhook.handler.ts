import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { secretIdFor, WebhookSecrets } from '../../engine/secrets.store.js';
import { webhookDecider } from '../../engine/webhook.decider.js';
import { webhookStream } from '../../engine/webhook.events.js';
import { WebhookChannels } from '../../engine/webhook-channels.js';
import { checkWebhookInput, urlPolicyOf } from '../../engine/webhook-input.js';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import type { WebhookDoc } from '../../engine/webhook-docs.js';
import { CreateWebhookCommand } from './create-webhook.command.js';

/**
 * Stores the secret (document store, by a fresh `secret_id`), then appends WebhookCreated to a
 * new `webhook-{id}` stream and waits for the read model, so the next GET and the next event's
 * fan-out both see the webhook. An owner has at most SVC_WEBHOOKS_PER_ACCOUNT webhooks, so one
 * tenant cannot fill the shared dispatchers with its own targets. The count comes from the read
 * model and creations of one owner are serialised in this process, so the cap is exact on one
 * process; api instances sharing MongoDB may each add one past it in a race.
 */
@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand, WebhookDoc> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly channels: WebhookChannels,
    private readonly secrets: WebhookSecrets,
    private readonly reads: WebhookReadModel,
  ) {}

  /** The creation in progress per owner (channel + owner id), so a count and its append are not interleaved. */
  private readonly inProgress = new Map<string, Promise<unknown>>();

  execute(command: CreateWebhookCommand): Promise<WebhookDoc> {
    const key = `${command.input.channel}:${command.input.owner.kind}:${command.input.owner.id}`;
    const previous = this.inProgress.get(key) ?? Promise.resolve();
    const next = previous.then(
      () => this.create(command),
      () => this.create(command),
    );
    this.inProgress.set(key, next);
    const forget = () => {
      if (this.inProgress.get(key) === next) this.inProgress.delete(key);
    };
    next.then(forget, forget);
    return next;
  }

  private async create({ input }: CreateWebhookCommand): Promise<WebhookDoc> {
    const { channel } = this.channels.get(input.channel);
    const limit = this.config.webhooksPerAccount;
    if ((await this.reads.countWebhooks(channel.name, input.owner, limit)) >= limit) {
      throw Errors.conflict(
        `This account already has ${limit} webhooks, the most it may have; delete one first (SVC_WEBHOOKS_PER_ACCOUNT).`,
        'WEBHOOK_LIMIT_REACHED',
        { limit },
      );
    }
    const { events } = checkWebhookInput(channel, urlPolicyOf(this.config), {
      url: input.url,
      events: input.events,
      secret: input.secret,
    });
    const now = this.clock.now();
    const webhookId = this.ids.next(channel.idPrefix);
    const secretId = secretIdFor(webhookId, this.ids.ulid());
    await this.secrets.put(secretId, webhookId, input.secret, now);
    const { position } = await decideAndAppend(this.events, webhookStream(webhookId), webhookDecider, {
      type: 'CreateWebhook',
      webhookId,
      channel: channel.name,
      owner: input.owner,
      url: input.url,
      events: events!,
      secretId,
      now,
    });
    await this.reads.waitFor(channel.name, position);
    return this.reads.webhook(channel.name, input.owner, webhookId);
  }
}
