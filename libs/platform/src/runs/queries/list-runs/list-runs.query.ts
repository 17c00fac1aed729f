import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { RunStatus } from '../../run.events.js';
import type { RunView } from '../../run.view.js';

export class ListRunsQuery extends Query<ListPage<RunView>> {
  constructor(
    readonly accountId: string,
    readonly filters: {
      status?: RunStatus | undefined;
      agentId?: string | undefined;
      repositoryId?: string | undefined;
    },
    readonly limit: number,
    readonly cursor?: string,
    /** GET /v1/agents/{id}/runs: an unknown agent is 404, not an empty page. */
    readonly agentMustExist = false,
  ) {
    super();
  }
}
