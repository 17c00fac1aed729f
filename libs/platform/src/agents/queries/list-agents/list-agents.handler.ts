import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { Filter } from '#documents';
import { ProjectionStore } from '#projections';
import { findPage } from '../../../shared/find-page.js';
import { toAgentView, type AgentView } from '../../agent.view.js';
import { AGENTS_COLLECTION, AGENTS_PROJECTION, type AgentDoc } from '../../agents.projection.js';
import { ListAgentsQuery } from './list-agents.query.js';

/** The account's agents, newest first. */
@QueryHandler(ListAgentsQuery)
export class ListAgentsHandler implements IQueryHandler<ListAgentsQuery, ListPage<AgentView>> {
  constructor(private readonly projections: ProjectionStore) {}

  execute(query: ListAgentsQuery): Promise<ListPage<AgentView>> {
    const collection = this.projections.collection<AgentDoc>(AGENTS_PROJECTION, AGENTS_COLLECTION);
    const filter: Filter = { account_id: query.accountId };
    if (query.template) filter.template = query.template;
    return findPage(collection, filter, [['created_at', -1]], query, toAgentView);
  }
}
