import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { RunLookup } from '../../run-lookup.js';
import { toRunView, type RunView } from '../../run.view.js';
import { GetRunQuery } from './get-run.query.js';

@QueryHandler(GetRunQuery)
export class GetRunHandler implements IQueryHandler<GetRunQuery, RunView> {
  constructor(private readonly runs: RunLookup) {}

  async execute(query: GetRunQuery): Promise<RunView> {
    return toRunView(await this.runs.get(query.accountId, query.runId));
  }
}
