import { Command } from '@nestjs/cqrs';
import type { CheckoutClaimDoc } from '../../checkout-claims.js';
import type { AccountWorkspaceView } from '#agent-contract';

export interface CheckoutSuccess {
  /** The claim of an unbound checkout, with its key the first time only (null afterwards). */
  revealed: { claim: CheckoutClaimDoc; key: string | null } | null;
  accountId: string | null;
  /** A completed sandbox session (the sandbox provider only). */
  paidSession: { amountCents: number; packName: string } | null;
  /** Null until the payment landed on an account. */
  balanceCents: number | null;
  workspace: AccountWorkspaceView | null;
}

/**
 * What the success page shows after a checkout. A command, not a query: an unbound checkout's
 * new key is revealed once, and that reveal is recorded.
 */
export class ShowCheckoutSuccessCommand extends Command<CheckoutSuccess> {
  constructor(
    readonly sessionId: string | undefined,
    /** For the workspace's links. */
    readonly baseUrl: string,
  ) {
    super();
  }
}
