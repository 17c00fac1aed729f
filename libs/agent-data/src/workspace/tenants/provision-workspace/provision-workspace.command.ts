import { Command } from '@nestjs/cqrs';

export interface ProvisionedWorkspace {
  tenant_id: string;
  plan: 'enterprise' | 'pilot' | 'pilot_ended';
  /** The pilot's end, when the tenant is (or was) on one. */
  pilot_ends_at: string | null;
  /** False when the account held the tenant already (a repeated delivery, a second purchase). */
  created: boolean;
}

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
