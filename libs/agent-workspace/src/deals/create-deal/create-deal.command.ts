import { Command } from '@nestjs/cqrs';
import type { TenantCaller } from '../../auth/workspace.guard.js';
import type { CreateDealBody } from '../../workspace.schemas.js';
import type { DealView } from '../../workspace.views.js';

/** A deal on a company of the workspace. */
export class CreateDealCommand extends Command<DealView> {
  constructor(
    readonly caller: TenantCaller,
    readonly body: CreateDealBody,
  ) {
    super();
  }
}
