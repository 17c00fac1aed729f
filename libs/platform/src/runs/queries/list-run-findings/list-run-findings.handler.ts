import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { Filter } from '#documents';
import { ProjectionStore } from '#projections';
import { findPage } from '../../../shared/find-page.js';
import { RunLookup } from '../../run-lookup.js';
import { type FindingView, toFindingView } from '../../run.view.js';
import { type FindingDoc, RUN_FINDINGS_COLLECTION, RUNS_PROJECTION } from '../../runs.projection.js';
import { ListRunFindingsQuery } from './list-run-findings.query.js';

/** A run's findings in the order the runner reported them. */
@QueryHandler(ListRunFindingsQuery)
export class ListRunFindingsHandler implements IQueryHandler<ListRunFindingsQuery, ListPage<FindingView>> {
  constructor(
    private readonly runs: RunLookup,
    private readonly projections: ProjectionStore,
  ) {}

  async execute(query: ListRunFindingsQuery): Promise<ListPage<FindingView>> {
    const run = await this.runs.get(query.accountId, query.runId);
    const filter: Filter = { run_id: run.id };
    if (query.level) filter.level = query.level;
    return findPage(
      this.projections.collection<FindingDoc>(RUNS_PROJECTION, RUN_FINDINGS_COLLECTION),
      filter,
      [['seq', 1]],
      query,
      toFindingView,
    );
  }
}
