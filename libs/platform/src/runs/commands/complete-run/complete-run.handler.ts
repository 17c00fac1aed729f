import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RunTransitions } from '../../run-transition.js';
import type { RunView } from '../../run.view.js';
import { CompleteRunCommand } from './complete-run.command.js';

/** running → success: `agent.completed`, and `agent.issues_found` when there are findings. */
@CommandHandler(CompleteRunCommand)
export class CompleteRunHandler implements ICommandHandler<CompleteRunCommand, RunView> {
  constructor(private readonly transitions: RunTransitions) {}

  execute({ input, options }: CompleteRunCommand): Promise<RunView> {
    return this.transitions.apply(
      {
        type: 'CompleteRun',
        runId: input.runId,
        accountId: input.accountId,
        by: input.by,
        findings: input.findings,
        summary: input.summary,
      },
      options,
    );
  }
}
