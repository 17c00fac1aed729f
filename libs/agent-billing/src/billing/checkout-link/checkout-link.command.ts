import { Command } from '@nestjs/cqrs';
import type { CheckoutLink, CheckoutLinkParams } from './checkout-link.schema.js';

/** Open a hosted checkout for a pack: bound to an agent key's account, or opening a new account on payment. */
export class CreateCheckoutLinkCommand extends Command<CheckoutLink> {
  constructor(
    readonly params: CheckoutLinkParams,
    readonly baseUrl: string,
    /** The agent key the request was made with, if any (it binds the checkout by itself). */
    readonly caller: { keyId: string; accountId: string } | null = null,
  ) {
    super();
  }
}
