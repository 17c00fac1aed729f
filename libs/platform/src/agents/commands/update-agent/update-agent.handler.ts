import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { AgentLookup } from '../../agent-lookup.js';
import { agentDecider } from '../../agent.decider.js';
import { agentStream } from '../../agent.events.js';
import { toAgentView, type AgentView } from '../../agent.view.js';
import { AGENTS_PROJECTION } from '../../agents.projection.js';
import { UpdateAgentCommand } from './update-agent.command.js';

@CommandHandler(UpdateAgentCommand)
export class UpdateAgentHandler implements ICommandHandler<UpdateAgentCommand, AgentView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly agents: AgentLookup,
  ) {}

  async execute({ input, options }: UpdateAgentCommand): Promise<AgentView> {
    const { position } = await decideAndAppend(this.events, agentStream(input.agentId), agentDecider, {
      type: 'UpdateAgent',
      agentId: input.agentId,
      accountId: input.accountId,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.config !== undefined ? { config: input.config } : {}),
      by: input.by,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [AGENTS_PROJECTION], options);
    return toAgentView(await this.agents.get(input.accountId, input.agentId));
  }
}
