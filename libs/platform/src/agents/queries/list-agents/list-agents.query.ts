import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#common';
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
