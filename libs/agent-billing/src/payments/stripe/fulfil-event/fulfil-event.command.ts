import { Command } from '@nestjs/cqrs';

export interface StripeEventOutcome {
  received: true;
  id: string;
  type: string;
  handled: boolean;
  credited: boolean;
  account_id?: string;
  error?: string;
}

/** A signed Stripe event as received: verified over its raw bytes, then fulfilled (idempotent). */
export class FulfilStripeEventCommand extends Command<StripeEventOutcome> {
  constructor(
    readonly rawBody: Buffer | undefined,
    readonly signature: string | undefined,
  ) {
    super();
  }
}
