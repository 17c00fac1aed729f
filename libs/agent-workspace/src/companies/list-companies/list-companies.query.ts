import { Query } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { ListPage } from '#http';
import type { listCompaniesQuery } from '../../workspace.schemas.js';
import type { WorkspaceCompanyView } from '../../workspace.views.js';

/** The tenant's companies, newest first; filters stage, owner and a name prefix. */
export class ListWorkspaceCompaniesQuery extends Query<ListPage<WorkspaceCompanyView>> {
  constructor(
    readonly tenantId: string,
    readonly params: z.output<typeof listCompaniesQuery>,
  ) {
    super();
  }
}
