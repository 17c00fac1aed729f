import { Command } from '@nestjs/cqrs';
import type { Plan } from '../../account.events.js';
import type { CommandOptions } from '#projections';

export interface CreateAccountResult {
  accountId: string;
  position: number;
}

/** Operator action (bootstrap, CLI): a new account on a plan; Enterprise needs both custom limits. */
export class CreateAccountCommand extends Command<CreateAccountResult> {
  constructor(
    readonly input: {
      name: string;
      plan: Plan;
      perMinute?: number;
      perHour?: number;
      /** Preassigned id (bootstrap); default a new one. */ accountId?: string;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
