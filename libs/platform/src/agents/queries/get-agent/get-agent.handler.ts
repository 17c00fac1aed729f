import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AgentLookup } from '../../agent-lookup.js';
import { toAgentView, type AgentView } from '../../agent.view.js';
import { GetAgentQuery } from './get-agent.query.js';

@QueryHandler(GetAgentQuery)
export class GetAgentHandler implements IQueryHandler<GetAgentQuery, AgentView> {
  constructor(private readonly agents: AgentLookup) {}

  async execute(query: GetAgentQuery): Promise<AgentView> {
    return toAgentView(await this.agents.get(query.accountId, query.agentId));
  }
}
