import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { AgentLookup } from '../../agent-lookup.js';
import { agentDecider } from '../../agent.decider.js';
import { agentStream } from '../../agent.events.js';
import { toAgentView, type AgentView } from '../../agent.view.js';
import { AGENTS_PROJECTION } from '../../agents.projection.js';
import { CreateAgentCommand } from './create-agent.command.js';

@CommandHandler(CreateAgentCommand)
export class CreateAgentHandler implements ICommandHandler<CreateAgentCommand, AgentView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly agents: AgentLookup,
  ) {}

  async execute({ input, options }: CreateAgentCommand): Promise<AgentView> {
    const agentId = this.ids.next('agt');
    const { position } = await decideAndAppend(this.events, agentStream(agentId), agentDecider, {
      type: 'CreateAgent',
      agentId,
      accountId: input.accountId,
      name: input.name,
      template: input.template,
      config: input.config,
      by: input.by,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [AGENTS_PROJECTION], options);
    return toAgentView(await this.agents.get(input.accountId, agentId));
  }
}
