import { Command } from '@nestjs/cqrs';
import type { TenantCaller } from '../../auth/workspace.guard.js';
import type { UpsertFollowUpBody } from '../../workspace.schemas.js';
import type { FollowUpView } from '../../workspace.views.js';

/**
 * Create or update the follow-up with the client's key on a workspace company (idempotent); with
 * no key (POST without one) a new follow-up under a key the service makes.
 */
export class UpsertFollowUpCommand extends Command<{ followUp: FollowUpView; created: boolean }> {
  constructor(
    readonly caller: TenantCaller,
    readonly companyId: string,
    readonly key: string | null,
    readonly body: UpsertFollowUpBody,
  ) {
    super();
  }
}
