import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import type { AgentAccountEvent, CheckoutPurpose } from '../accounts/agent-account.events.js';
import { EVENT_STORE, type EventStore } from '#eventstore';
import type { CreditPack } from '#agent-contract';
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

/** The stream of one checkout session: its opening is recorded there, not on the account. */
export const checkoutStream = (sessionId: string) => `checkout-${sessionId}`;

/**
 * Opens hosted checkouts with the configured provider and records each in a stream of its own
 * (`checkout-{session id}`, in the audit log like any event): anyone may ask for a checkout link,
 * so recording it on the account's stream would let a caller grow that stream without limit and
 * slow every later command of the account.
 */
@Injectable()
export class CheckoutService {
  constructor(
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get providerName() {
    return this.provider.name;
  }

  async open(request: OpenCheckout): Promise<CheckoutSession> {
    const session = await this.provider.createCheckoutSession(request);
    if (request.accountId) {
      const opened: Extract<AgentAccountEvent, { type: 'CheckoutSessionOpened' }> = {
        type: 'CheckoutSessionOpened',
        data: {
          account_id: request.accountId,
          provider: this.provider.name,
          session_id: session.id,
          pack_id: request.pack.pack_id,
          amount_cents: request.pack.amount_cents,
          credits_cents: request.pack.credits_cents,
          key_id: request.keyId,
          purpose: request.purpose,
          opened_at: this.clock.now().toISOString(),
        },
      };
      // A session id is new by construction: no_stream makes a repeat an error, not a duplicate.
      await this.events.append(checkoutStream(session.id), [opened], 'no_stream');
    }
    return session;
  }
}
