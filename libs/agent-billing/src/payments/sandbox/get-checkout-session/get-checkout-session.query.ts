import { Query } from '@nestjs/cqrs';
import type { SandboxCheckoutDoc } from '../sandbox-payment.adapter.js';

/** A sandbox checkout session, for its hosted page; 404 CHECKOUT_SESSION_NOT_FOUND otherwise. */
export class GetSandboxCheckoutQuery extends Query<SandboxCheckoutDoc> {
  constructor(readonly sessionId: string) {
    super();
  }
}
