import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { AgentTemplate } from '../../agent-templates.js';
import type { AgentView } from '../../agent.view.js';

export class ListAgentsQuery extends Query<ListPage<AgentView>> {
  constructor(
    readonly accountId: string,
    readonly template: AgentTemplate | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
