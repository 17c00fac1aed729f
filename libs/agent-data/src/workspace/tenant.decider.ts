import { assertNever, type Decider, Errors } from '#kernel';
import type { WorkspaceEvent } from './workspace.events.js';

type TenantEvent = Extract<WorkspaceEvent, { type: 'WorkspaceTenantCreated' }>;

export type TenantState =
  { status: 'none' } | { status: 'active'; tenantId: string; name: string; ownerAccountId: string };

export type TenantCommand = { type: 'CreateTenant'; tenantId: string; name: string; ownerAccountId: string; now: Date };

/** A tenant (stream `tenant-{id}`): a name and the agent account that owns its credits and keys. */
export const tenantDecider: Decider<TenantCommand, TenantEvent, TenantState> = {
  initialState: { status: 'none' },
  evolve(_state, event) {
    return {
      status: 'active',
      tenantId: event.data.tenant_id,
      name: event.data.name,
      ownerAccountId: event.data.owner_account_id,
    };
  },
  decide(command, state) {
    if (command.type !== 'CreateTenant') return assertNever(command.type);
    if (state.status !== 'none') throw Errors.conflict('The tenant exists already.', 'TENANT_EXISTS');
    const name = command.name.trim();
    if (name.length < 1 || name.length > 200)
      throw Errors.validation([{ path: 'name', message: 'must be 1 to 200 characters' }]);
    return [
      {
        type: 'WorkspaceTenantCreated',
        data: {
          tenant_id: command.tenantId,
          name,
          owner_account_id: command.ownerAccountId,
          created_at: command.now.toISOString(),
        },
      },
    ];
  },
};
