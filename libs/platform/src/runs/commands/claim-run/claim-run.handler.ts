import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppError } from '#kernel';
import type { Filter } from '#documents';
import { RunLookup } from '../../run-lookup.js';
import { RunTransitions } from '../../run-transition.js';
import type { RunView } from '../../run.view.js';
import { ClaimNextRunCommand, ClaimRunCommand } from './claim-run.command.js';

/** Candidates looked at per claim: the read model may still show runs others have just claimed. */
const CANDIDATES = 25;

@CommandHandler(ClaimRunCommand)
export class ClaimRunHandler implements ICommandHandler<ClaimRunCommand, RunView> {
  constructor(private readonly transitions: RunTransitions) {}

  execute({ input, options }: ClaimRunCommand): Promise<RunView> {
    return this.transitions.apply(
      { type: 'ClaimRun', runId: input.runId, accountId: input.accountId, by: input.by },
      options,
    );
  }
}

/**
 * The oldest matching queued run according to the read model, claimed on its stream: the run
 * stream decides (expected revision), so among concurrent claimers exactly one gets each run; a
 * loser (409, the run is running already) moves on to the next candidate.
 */
@CommandHandler(ClaimNextRunCommand)
export class ClaimNextRunHandler implements ICommandHandler<ClaimNextRunCommand, RunView | null> {
  constructor(
    private readonly runs: RunLookup,
    private readonly transitions: RunTransitions,
  ) {}

  async execute({ input, options }: ClaimNextRunCommand): Promise<RunView | null> {
    const filter: Filter = { account_id: input.accountId, status: 'queued' };
    if (input.agentId) filter['agent.id'] = input.agentId;
    if (input.repositoryId) filter['repository.id'] = input.repositoryId;
    if (input.template) filter['agent.template'] = input.template;
    const candidates = await this.runs.collection().find(filter, { sort: [['queued_at', 1]], limit: CANDIDATES });
    for (const candidate of candidates.items) {
      try {
        return await this.transitions.apply(
          { type: 'ClaimRun', runId: candidate.id, accountId: input.accountId, by: input.by },
          options,
        );
      } catch (error) {
        if (error instanceof AppError && error.code === 'INVALID_RUN_TRANSITION') continue;
        throw error;
      }
    }
    return null;
  }
}
