import { Command } from '@nestjs/cqrs';
import type { TenantCaller } from '../../auth/workspace.guard.js';
import type { AddCompanyBody } from '../../workspace.schemas.js';
import type { WorkspaceCompanyDetailView } from '../../workspace.views.js';

/** Add a company to the workspace: from the discovery universe (profile and score copied) or by name and domain. */
export class AddWorkspaceCompanyCommand extends Command<WorkspaceCompanyDetailView> {
  constructor(
    readonly caller: TenantCaller,
    readonly body: AddCompanyBody,
  ) {
    super();
  }
}
