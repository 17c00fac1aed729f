import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { Filter } from '#documents';
import { AgentLookup } from '../../../agents/agent-lookup.js';
import { findPage } from '../../../shared/find-page.js';
import { RunLookup } from '../../run-lookup.js';
import { toRunView, type RunView } from '../../run.view.js';
import { ListRunsQuery } from './list-runs.query.js';

/** The account's runs, most recently queued first. */
@QueryHandler(ListRunsQuery)
export class ListRunsHandler implements IQueryHandler<ListRunsQuery, ListPage<RunView>> {
  constructor(
    private readonly runs: RunLookup,
    private readonly agents: AgentLookup,
  ) {}

  async execute(query: ListRunsQuery): Promise<ListPage<RunView>> {
    if (query.agentMustExist && query.filters.agentId !== undefined)
      await this.agents.get(query.accountId, query.filters.agentId);
    const filter: Filter = { account_id: query.accountId };
    if (query.filters.status) filter.status = query.filters.status;
    if (query.filters.agentId) filter['agent.id'] = query.filters.agentId;
    if (query.filters.repositoryId) filter['repository.id'] = query.filters.repositoryId;
    return findPage(this.runs.collection(), filter, [['queued_at', -1]], query, toRunView);
  }
}
