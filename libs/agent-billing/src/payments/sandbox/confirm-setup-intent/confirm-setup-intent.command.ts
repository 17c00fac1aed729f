import { Command } from '@nestjs/cqrs';

export interface ConfirmedSetupIntent {
  setup_intent_id: string;
  status: string;
  payment_method_id: string;
}

/** Confirm a sandbox setup intent with a test card (the stand-in for a provider's client SDK). */
export class ConfirmSandboxSetupIntentCommand extends Command<ConfirmedSetupIntent> {
  constructor(
    readonly setupIntentId: string,
    readonly clientSecret: string,
    readonly paymentMethod: string,
  ) {
    super();
  }
}
