import { Command } from '@nestjs/cqrs';

export interface GrantCreditsResult {
  account_id: string;
  key_id: string;
  /** What this command added: 0 when the reference had been granted already. */
  granted_usd: number;
  reference: string;
  balance_usd: number;
  /** False when the reference had been granted already (nothing appended). */
  granted: boolean;
}

/**
 * The operator grants prepaid credits to the account of an agent key (enterprise commits, paid
 * outside this service): idempotent by reference, per account (ADR 0061).
 */
export class GrantCreditsCommand extends Command<GrantCreditsResult> {
  constructor(
    readonly input: {
      keyId: string;
      creditsCents: number;
      reference: string;
    },
  ) {
    super();
  }
}
