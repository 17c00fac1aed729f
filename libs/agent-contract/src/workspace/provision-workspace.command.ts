import type { z } from 'zod';
import type { provisionedWorkspaceSchema } from './workspace-views.schema.js';
import { Command } from '@nestjs/cqrs';

/** The workspace a paid pack opened, as the payment's answer names it. */
export type ProvisionedWorkspace = z.infer<typeof provisionedWorkspaceSchema>;

/**
 * A paid purchase of a pack that opens a workspace (CreditPack.workspace, ADR 0078): puts a tenant
 * on the paying account and starts the pilot or activates enterprise access. Idempotent: the
 * same payment again (Stripe's redelivery, a double-submitted sandbox Pay) changes nothing.
 * Null for a pack that opens none.
 */
export class ProvisionWorkspaceCommand extends Command<ProvisionedWorkspace | null> {
  constructor(
    readonly accountId: string,
    readonly packId: string,
    /** The payment's reference (checkout session or payment intent id): recorded on the tenant. */
    readonly reference: string,
  ) {
    super();
  }
}
