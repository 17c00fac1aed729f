import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { agentDecider, agentNotFound } from '../../../agents/agent.decider.js';
import { agentStream } from '../../../agents/agent.events.js';
import { RepositoryLookup } from '../../../repositories/repository-lookup.js';
import { ReadYourWrites } from '#projections';
import { RunLookup } from '../../run-lookup.js';
import { runDecider } from '../../run.decider.js';
import { runStream } from '../../run.events.js';
import { toRunView, type RunView } from '../../run.view.js';
import { RUNS_PROJECTION } from '../../runs.projection.js';
import { StartRunCommand } from './start-run.command.js';

/**
 * Queues a run of an agent against a connected repository (and maybe a pull request). The
 * agent's name, template and config are read from its stream (current, not the read model) and
 * copied into the run, so the run and its events say what actually ran.
 */
@CommandHandler(StartRunCommand)
export class StartRunHandler implements ICommandHandler<StartRunCommand, RunView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly repositories: RepositoryLookup,
    private readonly runs: RunLookup,
  ) {}

  async execute({ input, options }: StartRunCommand): Promise<RunView> {
    const { state: agent } = await loadState(this.events, agentStream(input.agentId), agentDecider);
    if (agent.status !== 'active' || agent.accountId !== input.accountId) throw agentNotFound();
    const repository = await this.repositories.connected(input.accountId, input.repositoryId);
    const runId = this.ids.next('run');
    const { position } = await decideAndAppend(this.events, runStream(runId), runDecider, {
      type: 'QueueRun',
      runId,
      accountId: input.accountId,
      agent: { id: agent.agentId, name: agent.name, template: agent.template },
      config: agent.config,
      repository: { id: repository.id, name: repository.name },
      pullRequest: input.pullRequest,
      ref: input.ref,
      by: input.by,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [RUNS_PROJECTION], options);
    return toRunView(await this.runs.get(input.accountId, runId));
  }
}
