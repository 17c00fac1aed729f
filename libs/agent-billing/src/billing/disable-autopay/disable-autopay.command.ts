import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { BillingService } from '../billing.service.js';

/** Turn autopay off. */
export class DisableAutopayCommand extends Command<Awaited<ReturnType<BillingService['disableAutopay']>>> {
  constructor(readonly agent: AgentPrincipal) {
    super();
  }
}
