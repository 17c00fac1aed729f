import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RunTransitions } from '../../run-transition.js';
import type { RunView } from '../../run.view.js';
import { FailRunCommand } from './fail-run.command.js';

/** running → failed: `agent.failed`. */
@CommandHandler(FailRunCommand)
export class FailRunHandler implements ICommandHandler<FailRunCommand, RunView> {
  constructor(private readonly transitions: RunTransitions) {}

  execute({ input, options }: FailRunCommand): Promise<RunView> {
    return this.transitions.apply(
      { type: 'FailRun', runId: input.runId, accountId: input.accountId, by: input.by, error: input.error },
      options,
    );
  }
}
