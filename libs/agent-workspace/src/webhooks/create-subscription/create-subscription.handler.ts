import { randomBytes } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CreateWebhookCommand } from '#webhooks';
import { WORKSPACE_CHANNEL } from '../workspace.channel.js';
import { type CreatedSubscriptionView, subscriptionView } from '../workspace-webhooks.views.js';
import { CreateSubscriptionCommand } from './create-subscription.command.js';

/**
 * A generated signing secret: 32 random bytes, base64url. No `whsec_` prefix on purpose: every
 * secret of the engine signs as its UTF-8 bytes (ADR 0059), which a `whsec_` string would not be.
 */
export function generateSubscriptionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Creates the subscription through the engine (same URL policy, limits, sealed secret). A secret
 * the tenant did not give is generated and shown once, in this answer only.
 */
@CommandHandler(CreateSubscriptionCommand)
export class CreateSubscriptionHandler implements ICommandHandler<CreateSubscriptionCommand, CreatedSubscriptionView> {
  constructor(private readonly commands: CommandBus) {}

  async execute({ caller, body }: CreateSubscriptionCommand): Promise<CreatedSubscriptionView> {
    const secret = body.secret ?? generateSubscriptionSecret();
    const doc = await this.commands.execute(
      new CreateWebhookCommand({
        channel: WORKSPACE_CHANNEL,
        owner: { kind: 'tenant', id: caller.tenantId },
        url: body.url,
        events: body.events,
        secret,
      }),
    );
    return body.secret === undefined ? { ...subscriptionView(doc), secret } : subscriptionView(doc);
  }
}
