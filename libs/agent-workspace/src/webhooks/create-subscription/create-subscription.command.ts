import { Command } from '@nestjs/cqrs';
import type { TenantCaller } from '../../auth/workspace.guard.js';
import type { CreatedSubscriptionView } from '../workspace-webhooks.views.js';
import type { CreateSubscriptionBody } from '../workspace-webhooks.schemas.js';

/** A webhook subscription of the tenant (the engine's `workspace` channel). */
export class CreateSubscriptionCommand extends Command<CreatedSubscriptionView> {
  constructor(
    readonly caller: TenantCaller,
    readonly body: CreateSubscriptionBody,
  ) {
    super();
  }
}
