import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '#access';
import { AppError, Errors } from '#kernel';
import { ProjectionStore } from '#projections';
import { findPack, packForObjective, PATHS, toObjective } from '#agent-contract';
import { CheckoutService } from '../../checkout/checkout.service.js';
import { CreateCheckoutLinkCommand } from './checkout-link.command.js';
import type { CheckoutLink, CheckoutLinkParams } from './checkout-link.schema.js';
import { CheckoutLinkSigner } from '../../checkout/checkout-link.signature.js';

/** The key a checkout is bound to: its id and account. */
type BoundKey = Pick<ApiKeyDoc, 'id' | 'account_id'>;

@CommandHandler(CreateCheckoutLinkCommand)
export class CreateCheckoutLinkHandler implements ICommandHandler<CreateCheckoutLinkCommand, CheckoutLink> {
  constructor(
    private readonly checkouts: CheckoutService,
    private readonly projections: ProjectionStore,
    private readonly signer: CheckoutLinkSigner,
  ) {}

  async execute({ params, baseUrl, caller }: CreateCheckoutLinkCommand): Promise<CheckoutLink> {
    const key = await this.boundKey(params, caller, baseUrl);
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

  /**
   * The key whose account the credits go to: the request's own key, or the key_id the link names
   * (spec payment flow 3: the link is for a person's browser, which never holds the key), or none
   * (paying opens a new account). A bare key_id binds (ADR 0058, amended): opening a checkout that
   * credits someone else's key costs them nothing, and it is recorded on the checkout's own
   * stream, never on the account's. A link this service signed is still checked, so a changed or
   * outdated one is refused rather than read as a bare id.
   */
  private async boundKey(
    params: CheckoutLinkParams,
    caller: CreateCheckoutLinkCommand['caller'],
    baseUrl: string,
  ): Promise<BoundKey | null> {
    const keyId = params.key_id ?? caller?.keyId;
    if (!keyId) return null;
    // The request's own key was authenticated already: no lookup needed.
    if (caller && keyId === caller.keyId) return { id: caller.keyId, account_id: caller.accountId };
    if (params.sig !== undefined || params.exp !== undefined) {
      const check =
        params.sig === undefined || params.exp === undefined
          ? 'invalid'
          : this.signer.check({ key_id: keyId, exp: params.exp, sig: params.sig });
      if (check === 'expired') throw unproven('CHECKOUT_LINK_EXPIRED', baseUrl);
      if (check === 'invalid') throw unproven('CHECKOUT_LINK_SIGNATURE_INVALID', baseUrl);
    }
    const key = await this.projections.collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION).get(keyId);
    // Unknown, revoked and platform keys answer alike: nothing is opened for any of them.
    if (key === null || key.surface !== 'agent' || key.revoked_at !== null)
      throw Errors.notFound('No active agent key has this key_id; nothing was opened.', 'KEY_NOT_FOUND');
    return key;
  }
}

const UNPROVEN_MESSAGES = {
  CHECKOUT_LINK_EXPIRED:
    'This signed checkout link has expired; ask for a new one (any paid call at zero balance), or open it with key_id alone (without exp and sig).',
  CHECKOUT_LINK_SIGNATURE_INVALID: 'The signature of this checkout link does not match its key_id and exp.',
} as const;

function unproven(code: keyof typeof UNPROVEN_MESSAGES, baseUrl: string): AppError {
  return new AppError('unauthenticated', code, UNPROVEN_MESSAGES[code], {
    next_actions: [
      {
        action: 'checkout_with_key',
        method: 'GET',
        url: `${baseUrl}${PATHS.checkoutLink}`,
        description: 'The same address with the key in x-api-key binds the checkout to that key’s account.',
      },
      {
        action: 'checkout_new_account',
        method: 'GET',
        url: `${baseUrl}${PATHS.checkoutLink}?pack_id=pack_29`,
        description: 'Without key_id: paying opens a new account, and the success page shows its key once.',
      },
    ],
  });
}
