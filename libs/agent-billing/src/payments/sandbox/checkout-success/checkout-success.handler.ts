import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { CreditsService } from '../../../credits/credits.service.js';
import { GetAccountWorkspaceQuery } from '#agent-contract';
import { CheckoutClaims } from '../../checkout-claims.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../payment-provider.port.js';
import { SandboxPaymentProvider } from '../sandbox-payment.adapter.js';
import { type CheckoutSuccess, ShowCheckoutSuccessCommand } from './checkout-success.command.js';

@CommandHandler(ShowCheckoutSuccessCommand)
export class ShowCheckoutSuccessHandler implements ICommandHandler<ShowCheckoutSuccessCommand, CheckoutSuccess> {
  constructor(
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly credits: CreditsService,
    private readonly claims: CheckoutClaims,
    private readonly queries: QueryBus,
  ) {}

  async execute({ sessionId, baseUrl }: ShowCheckoutSuccessCommand): Promise<CheckoutSuccess> {
    const revealed = sessionId ? await this.claims.reveal(sessionId) : null;
    let accountId = revealed?.claim.account_id ?? null;
    let paidSession: CheckoutSuccess['paidSession'] = null;
    if (sessionId && this.provider instanceof SandboxPaymentProvider) {
      const session = await this.provider.checkoutSession(sessionId);
      if (session?.status === 'complete') {
        accountId ??= session.account_id;
        paidSession = { amountCents: session.amount_cents, packName: session.pack_name };
      }
    }
    const balanceCents = accountId ? (await this.credits.state(accountId, { fresh: true })).state.balanceCents : null;
    const workspace = accountId ? await this.queries.execute(new GetAccountWorkspaceQuery(accountId, baseUrl)) : null;
    return { revealed, accountId, paidSession, balanceCents, workspace };
  }
}
