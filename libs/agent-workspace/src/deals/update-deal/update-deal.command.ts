import { Command } from '@nestjs/cqrs';
import type { TenantCaller } from '../../auth/workspace.guard.js';
import type { UpdateDealBody } from '../../workspace.schemas.js';
import type { DealView } from '../../workspace.views.js';

/** Change a deal: its stage (by the stage rule) and any of its other fields. */
export class UpdateDealCommand extends Command<DealView> {
  constructor(
    readonly caller: TenantCaller,
    readonly dealId: string,
    readonly body: UpdateDealBody,
  ) {
    super();
  }
}
