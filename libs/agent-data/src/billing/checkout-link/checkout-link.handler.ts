import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '#access';
import { Errors } from '#kernel';
import { ProjectionStore } from '#projections';
import { packForObjective, toObjective } from '../../catalog/objectives.js';
import { findPack } from '../../catalog/packs.js';
import { CheckoutService } from '../checkout.service.js';
import { CreateCheckoutLinkCommand } from './checkout-link.command.js';
import type { CheckoutLink } from './checkout-link.schema.js';

@CommandHandler(CreateCheckoutLinkCommand)
export class CreateCheckoutLinkHandler implements ICommandHandler<CreateCheckoutLinkCommand, CheckoutLink> {
  constructor(
    private readonly checkouts: CheckoutService,
    private readonly projections: ProjectionStore,
  ) {}

  async execute({ params, baseUrl }: CreateCheckoutLinkCommand): Promise<CheckoutLink> {
    let key: ApiKeyDoc | null = null;
    if (params.key_id) {
      key = await this.projections.collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION).get(params.key_id);
      if (!key || key.surface !== 'agent' || key.revoked_at !== null)
        throw Errors.notFound('No active agent key with that id.', 'KEY_NOT_FOUND');
    }
    const pack = findPack(params.pack_id ?? packForObjective(params.objective))!;
    const session = await this.checkouts.open({
      accountId: key?.account_id ?? null,
      keyId: key?.id ?? null,
      pack,
      purpose: 'checkout_link',
      objective: toObjective(params.objective) ?? null,
      source: params.source ?? null,
      email: null,
      baseUrl,
    });
    return {
      url: session.url,
      session_id: session.id,
      provider: this.checkouts.providerName,
      pack_id: pack.pack_id,
      amount_usd: pack.amount_cents / 100,
      credits_usd: pack.credits_cents / 100,
      key_id: key?.id ?? null,
      bound: key !== null,
      expires_at: session.expiresAt,
    };
  }
}
