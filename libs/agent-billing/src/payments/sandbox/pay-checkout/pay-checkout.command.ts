import { Command } from '@nestjs/cqrs';
import type { ProvisionedWorkspace } from '#agent-contract';

export interface PaidSandboxCheckout {
  paid: true;
  session_id: string;
  account_id: string;
  pack_id: string;
  credited: boolean;
  credits_usd: number;
  balance_usd: number;
  /** An unbound checkout opened a new account: its key is shown once, on the success page. */
  claim_url?: string;
  /** The workspace the pack opened (pack_2499: the pilot, pack_10000: enterprise); null for a credits-only pack. */
  workspace: ProvisionedWorkspace | null;
}

/** Pay a sandbox checkout (its Pay button): complete the session and credit it like a paid Stripe checkout. */
export class PaySandboxCheckoutCommand extends Command<PaidSandboxCheckout> {
  constructor(readonly sessionId: string) {
    super();
  }
}
