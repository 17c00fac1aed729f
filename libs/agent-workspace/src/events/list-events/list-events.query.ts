import { Query } from '@nestjs/cqrs';
import type { TenantEventView } from '../../workspace.views.js';

export interface TenantEventPage {
  data: TenantEventView[];
  next_cursor: string;
  has_more: boolean;
}

/** A page of the tenant event stream after a cursor, oldest first; waits up to `waitSeconds` when nothing is new. */
export class ListTenantEventsQuery extends Query<TenantEventPage> {
  constructor(
    readonly tenantId: string,
    readonly after: string | undefined,
    readonly limit: number,
    readonly types: string[] | undefined,
    readonly waitSeconds: number,
  ) {
    super();
  }
}
