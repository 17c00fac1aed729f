import { Query } from '@nestjs/cqrs';
import type { RunView } from '../../run.view.js';

export class GetRunQuery extends Query<RunView> {
  constructor(
    readonly accountId: string,
    readonly runId: string,
  ) {
    super();
  }
}
