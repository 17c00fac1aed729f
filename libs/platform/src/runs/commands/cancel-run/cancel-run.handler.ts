import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RunTransitions } from '../../run-transition.js';
import type { RunView } from '../../run.view.js';
import { CancelRunCommand } from './cancel-run.command.js';

/** queued | running → cancelled. No platform event: the spec's list has none for it. */
@CommandHandler(CancelRunCommand)
export class CancelRunHandler implements ICommandHandler<CancelRunCommand, RunView> {
  constructor(private readonly transitions: RunTransitions) {}

  execute({ input, options }: CancelRunCommand): Promise<RunView> {
    return this.transitions.apply(
      { type: 'CancelRun', runId: input.runId, accountId: input.accountId, by: input.by, reason: input.reason },
      options,
    );
  }
}
