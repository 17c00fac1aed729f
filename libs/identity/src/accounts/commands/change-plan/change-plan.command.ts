import { Command } from '@nestjs/cqrs';
import type { Plan } from '../../account.events.js';
import type { CommandOptions } from '#projections';

export interface ChangePlanResult {
  /** False when the account was on that plan with those limits already. */
  changed: boolean;
  position: number | null;
}

/** Operator action (CLI): moves an account to another plan; its rate limits follow at once. */
export class ChangePlanCommand extends Command<ChangePlanResult> {
  constructor(
    readonly input: { accountId: string; plan: Plan; perMinute?: number; perHour?: number },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
