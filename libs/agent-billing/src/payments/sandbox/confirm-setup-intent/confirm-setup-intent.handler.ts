import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../payment-provider.port.js';
import { sandboxOf } from '../sandbox-provider.js';
import { ConfirmSandboxSetupIntentCommand, type ConfirmedSetupIntent } from './confirm-setup-intent.command.js';

@CommandHandler(ConfirmSandboxSetupIntentCommand)
export class ConfirmSandboxSetupIntentHandler implements ICommandHandler<
  ConfirmSandboxSetupIntentCommand,
  ConfirmedSetupIntent
> {
  constructor(@Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider) {}

  async execute(command: ConfirmSandboxSetupIntentCommand): Promise<ConfirmedSetupIntent> {
    const result = await sandboxOf(this.provider).confirmSetupIntent(
      command.setupIntentId,
      command.clientSecret,
      command.paymentMethod,
    );
    return { setup_intent_id: result.setupIntentId, status: result.status, payment_method_id: result.paymentMethodId };
  }
}
