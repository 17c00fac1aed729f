import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '#kernel';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../payment-provider.port.js';
import type { SandboxCheckoutDoc } from '../sandbox-payment.adapter.js';
import { sandboxOf } from '../sandbox-provider.js';
import { GetSandboxCheckoutQuery } from './get-checkout-session.query.js';

@QueryHandler(GetSandboxCheckoutQuery)
export class GetSandboxCheckoutHandler implements IQueryHandler<GetSandboxCheckoutQuery, SandboxCheckoutDoc> {
  constructor(@Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider) {}

  async execute({ sessionId }: GetSandboxCheckoutQuery): Promise<SandboxCheckoutDoc> {
    const session = await sandboxOf(this.provider).checkoutSession(sessionId);
    if (!session) throw Errors.notFound('No such checkout session.', 'CHECKOUT_SESSION_NOT_FOUND');
    return session;
  }
}
