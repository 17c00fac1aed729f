import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, AppError, CLOCK, type Clock, Errors } from '#kernel';
import { CreateApiKeyCommand } from '#access';
import { AgentAccounts } from '../accounts/agent-accounts.js';
import { AGENT_KEY_SCOPES } from '../accounts/agent-key-scopes.js';
import { CheckoutClaims } from './checkout-claims.js';
import { findPack, type ProvisionedWorkspace, ProvisionWorkspaceCommand } from '#agent-contract';
import type { LedgerResult } from '../credits/credit-ledger.js';
import type { PaymentProviderName, PurchaseSource } from '../credits/credits.events.js';
import { CreditsService } from '../credits/credits.service.js';
import type { CompletedCheckout } from './payment-provider.port.js';

export interface Fulfilled {
  accountId: string;
  /** True when this checkout named no key and opened its account (its key is shown on the success page). */
  opened: boolean;
  /** False when this payment had been credited already (a repeated delivery). */
  credited: boolean;
  balanceCents: number;
  creditsCents: number;
  position: number | null;
  /** The workspace the pack opened for the account (ADR 0078); null for a credits-only pack. */
  workspace: ProvisionedWorkspace | null;
}

export interface SucceededPayment {
  provider: PaymentProviderName;
  paymentIntentId: string;
  accountId: string;
  packId: string;
  amountPaidCents: number;
  source: Exclude<PurchaseSource, 'checkout'>;
  keyId: string | null;
  autopayAttemptId: string | null;
}

/**
 * The one place payments become credits (D16): Stripe's signed webhook, the sandbox's Pay
 * button, direct top-ups and autopay all end here. Idempotent by payment reference (checkout
 * session id or payment intent id) through the ledger decider. A pack that opens a workspace
 * (pilot, enterprise) provisions it in the same fulfilment, after the credits, also when the
 * credits were there already: a delivery that failed half-way is finished by the next one.
 */
@Injectable()
export class PaymentFulfilment {
  private readonly logger = new Logger('PaymentFulfilment');

  constructor(
    private readonly credits: CreditsService,
    private readonly accounts: AgentAccounts,
    private readonly claims: CheckoutClaims,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async checkoutCompleted(checkout: CompletedCheckout): Promise<Fulfilled> {
    let { accountId, keyId } = checkout;
    const opened = !accountId;
    if (!accountId) ({ accountId, keyId } = await this.openForCheckout(checkout));
    const fulfilled = await this.credit({
      accountId,
      packId: checkout.packId,
      amountPaidCents: checkout.amountPaidCents,
      reference: checkout.sessionId,
      provider: checkout.provider,
      source: 'checkout',
      keyId,
      autopayAttemptId: null,
    });
    return { ...fulfilled, opened };
  }

  async paymentSucceeded(payment: SucceededPayment): Promise<Fulfilled> {
    return this.credit({ ...payment, reference: payment.paymentIntentId });
  }

  /**
   * An unbound checkout (no key yet) opens its account and first key at fulfilment, once per
   * session however often it is delivered: the ids come from the session's claim, and a repeat
   * finds the account and key there already. The key value waits, encrypted, in the claim until
   * the success page shows it.
   */
  private async openForCheckout(checkout: CompletedCheckout): Promise<{ accountId: string; keyId: string }> {
    const pack = this.checkPack(checkout.packId, checkout.amountPaidCents, checkout.sessionId);
    const claim = await this.claims.claim(checkout.sessionId);
    try {
      await this.accounts.decide(claim.account_id, {
        type: 'OpenAgentAccount',
        accountId: claim.account_id,
        origin: 'checkout',
        environment: this.config.env,
        contactEmail: checkout.email,
        agentName: null,
        useCase: null,
        objective: checkout.objective,
        packId: pack.pack_id,
        source: checkout.source,
        sourceRef: null,
        now: this.clock.now(),
      });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'ACCOUNT_EXISTS')) throw error;
    }
    try {
      const key = await this.commands.execute(
        new CreateApiKeyCommand({
          accountId: claim.account_id,
          keyId: claim.key_id,
          name: 'agent key (checkout)',
          scopes: AGENT_KEY_SCOPES,
          surface: 'agent',
          creator: { operator: true },
        }),
      );
      await this.claims.storeKey(checkout.sessionId, key.key);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'KEY_EXISTS')) throw error;
    }
    // The account's stream knows its keys (LAST_ACTIVE_KEY); recording the same key twice is a no-op.
    await this.accounts.decide(claim.account_id, {
      type: 'RecordAgentKeyIssued',
      keyId: claim.key_id,
      knownActiveKeyIds: [],
      now: this.clock.now(),
    });
    this.logger.log(`checkout ${checkout.sessionId} opened account ${claim.account_id}`);
    return { accountId: claim.account_id, keyId: claim.key_id };
  }

  private checkPack(packId: string, amountPaidCents: number, reference: string) {
    const pack = findPack(packId);
    if (!pack) throw Errors.badRequest('UNKNOWN_PACK', `The payment names an unknown pack "${packId}".`);
    if (amountPaidCents < pack.amount_cents) {
      this.logger.warn(
        `payment ${reference} paid ${amountPaidCents} cents for ${pack.pack_id} (${pack.amount_cents}): not credited`,
      );
      throw Errors.badRequest('AMOUNT_MISMATCH', 'The amount paid does not match the pack.');
    }
    return pack;
  }

  private async credit(p: {
    accountId: string;
    packId: string;
    amountPaidCents: number;
    reference: string;
    provider: PaymentProviderName;
    source: PurchaseSource;
    keyId: string | null;
    autopayAttemptId: string | null;
  }): Promise<Fulfilled> {
    const pack = this.checkPack(p.packId, p.amountPaidCents, p.reference);
    const account = await this.accounts.load(p.accountId);
    if (account.status !== 'open') throw Errors.notFound('The payment names an unknown account.', 'ACCOUNT_NOT_FOUND');
    const result: LedgerResult = await this.credits.execute(p.accountId, {
      type: 'PurchaseCredits',
      accountId: p.accountId,
      packId: pack.pack_id,
      amountCents: p.amountPaidCents,
      creditsCents: pack.credits_cents,
      paymentReference: p.reference,
      provider: p.provider,
      source: p.source,
      keyId: p.keyId,
      autopayAttemptId: p.autopayAttemptId,
      now: this.clock.now(),
    });
    const workspace = await this.commands.execute(
      new ProvisionWorkspaceCommand(p.accountId, pack.pack_id, p.reference),
    );
    return {
      accountId: p.accountId,
      opened: false,
      credited: result.events.length > 0,
      balanceCents: result.state.balanceCents,
      creditsCents: pack.credits_cents,
      position: result.position,
      workspace,
    };
  }
}
