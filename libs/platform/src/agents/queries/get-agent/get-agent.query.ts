import { Query } from '@nestjs/cqrs';
import type { AgentView } from '../../agent.view.js';

export class GetAgentQuery extends Query<AgentView> {
  constructor(
    readonly accountId: string,
    readonly agentId: string,
  ) {
    super();
  }
}
