import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import type { CheckoutPurpose } from '../accounts/agent-account.events.js';
import { AgentAccounts } from '../accounts/agent-accounts.js';
import type { CreditPack } from '../catalog/packs.js';
import { type CheckoutSession, PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider.port.js';

export interface OpenCheckout {
  accountId: string | null;
  keyId: string | null;
  pack: CreditPack;
  purpose: CheckoutPurpose;
  objective: string | null;
  source: string | null;
  email: string | null;
  baseUrl: string;
}

/** Opens hosted checkouts with the configured provider and records them on the account. */
@Injectable()
export class CheckoutService {
  constructor(
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly accounts: AgentAccounts,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get providerName() {
    return this.provider.name;
  }

  async open(request: OpenCheckout): Promise<CheckoutSession> {
    const session = await this.provider.createCheckoutSession(request);
    if (request.accountId) {
      await this.accounts.decide(request.accountId, {
        type: 'RecordCheckoutSession',
        provider: this.provider.name,
        sessionId: session.id,
        packId: request.pack.pack_id,
        amountCents: request.pack.amount_cents,
        creditsCents: request.pack.credits_cents,
        keyId: request.keyId,
        purpose: request.purpose,
        now: this.clock.now(),
      });
    }
    return session;
  }
}
