import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { Severity } from '../../security.events.js';
import type { VulnerabilityAlertView } from '../../security.view.js';

export class ListVulnerabilitiesQuery extends Query<ListPage<VulnerabilityAlertView>> {
  constructor(
    readonly accountId: string,
    readonly repositoryId: string,
    readonly state: 'open' | 'resolved' | 'all',
    readonly severity: Severity | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
