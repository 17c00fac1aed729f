import { Command } from '@nestjs/cqrs';
import type { TenantCaller } from '../../auth/workspace.guard.js';
import type { MemoView } from '../../workspace.views.js';

/** Write a new version of a company's memo; with `expectedVersion` only over that version (If-Match). */
export class UpdateMemoCommand extends Command<MemoView> {
  constructor(
    readonly caller: TenantCaller,
    readonly companyId: string,
    readonly body: string,
    readonly expectedVersion: number | undefined,
  ) {
    super();
  }
}
