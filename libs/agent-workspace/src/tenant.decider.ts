import { assertNever, type Decider, Errors } from '#kernel';
import type { EntitlementSource, WorkspaceEvent } from './workspace.events.js';

type TenantEvent = Extract<
  WorkspaceEvent,
  { type: 'WorkspaceTenantCreated' | 'WorkspacePilotStarted' | 'WorkspacePilotEnded' | 'WorkspaceEnterpriseActivated' }
>;

export interface TenantPilot {
  days: number;
  startedAt: string;
  endsAt: string;
  /** When the service recorded the end (the sweeper); the pilot is over at `endsAt` either way. */
  endedAt: string | null;
  source: EntitlementSource;
  reference: string;
}

export type TenantState =
  | { status: 'none' }
  | {
      status: 'active';
      tenantId: string;
      name: string;
      ownerAccountId: string;
      createdAt: string;
      pilot: TenantPilot | null;
      enterprise: { activatedAt: string; source: EntitlementSource; reference: string } | null;
    };

export type TenantCommand =
  | { type: 'CreateTenant'; tenantId: string; name: string; ownerAccountId: string; now: Date }
  | { type: 'StartPilot'; days: number; source: EntitlementSource; reference: string; now: Date }
  | { type: 'ActivateEnterprise'; source: EntitlementSource; reference: string; now: Date }
  | { type: 'EndPilot'; now: Date };

const DAY_MS = 24 * 3600 * 1000;

function active(state: TenantState): Extract<TenantState, { status: 'active' }> {
  if (state.status !== 'active') throw Errors.notFound('No tenant with this id.', 'TENANT_NOT_FOUND');
  return state;
}

/**
 * A tenant (stream `tenant-{id}`): a name, the agent account that owns its credits and keys, and
 * its plan. A pilot runs once per tenant, for its days; enterprise access is for good and
 * supersedes a pilot, running or ended (ADR 0078).
 */
export const tenantDecider: Decider<TenantCommand, TenantEvent, TenantState> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'WorkspaceTenantCreated':
        return {
          status: 'active',
          tenantId: event.data.tenant_id,
          name: event.data.name,
          ownerAccountId: event.data.owner_account_id,
          createdAt: event.data.created_at,
          pilot: null,
          enterprise: null,
        };
      case 'WorkspacePilotStarted': {
        if (state.status !== 'active') return state;
        const d = event.data;
        const pilot = {
          days: d.days,
          startedAt: d.started_at,
          endsAt: d.ends_at,
          endedAt: null,
          source: d.source,
          reference: d.reference,
        };
        return { ...state, pilot };
      }
      case 'WorkspacePilotEnded':
        if (state.status !== 'active' || !state.pilot) return state;
        return { ...state, pilot: { ...state.pilot, endedAt: event.data.ended_at } };
      case 'WorkspaceEnterpriseActivated': {
        if (state.status !== 'active') return state;
        const d = event.data;
        return { ...state, enterprise: { activatedAt: d.activated_at, source: d.source, reference: d.reference } };
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'CreateTenant': {
        if (state.status !== 'none') throw Errors.conflict('The tenant exists already.', 'TENANT_EXISTS');
        const name = command.name.trim();
        if (name.length < 1 || name.length > 200)
          throw Errors.validation([{ path: 'name', message: 'must be 1 to 200 characters' }]);
        return [
          {
            type: 'WorkspaceTenantCreated',
            data: { tenant_id: command.tenantId, name, owner_account_id: command.ownerAccountId, created_at: at },
          },
        ];
      }
      case 'StartPilot': {
        const s = active(state);
        // Once per tenant (a second pilot pack buys credits only); never over enterprise access.
        if (s.pilot || s.enterprise) return [];
        if (!Number.isInteger(command.days) || command.days < 1)
          throw Errors.validation([{ path: 'days', message: 'must be a whole number of days, at least 1' }]);
        return [
          {
            type: 'WorkspacePilotStarted',
            data: {
              tenant_id: s.tenantId,
              days: command.days,
              started_at: at,
              ends_at: new Date(command.now.getTime() + command.days * DAY_MS).toISOString(),
              source: command.source,
              reference: command.reference,
            },
          },
        ];
      }
      case 'ActivateEnterprise': {
        const s = active(state);
        if (s.enterprise) return [];
        return [
          {
            type: 'WorkspaceEnterpriseActivated',
            data: { tenant_id: s.tenantId, activated_at: at, source: command.source, reference: command.reference },
          },
        ];
      }
      case 'EndPilot': {
        const s = active(state);
        // Nothing to end: no pilot, recorded already, lifted by enterprise access, or not due yet.
        if (!s.pilot || s.pilot.endedAt || s.enterprise) return [];
        if (command.now.getTime() < Date.parse(s.pilot.endsAt)) return [];
        return [
          { type: 'WorkspacePilotEnded', data: { tenant_id: s.tenantId, ends_at: s.pilot.endsAt, ended_at: at } },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

/** What a tenant may do now: the plan it is on and whether writes are allowed. */
export interface TenantAccess {
  /**
   * `enterprise`: bought (or made by an operator: tenants with no pilot are enterprise);
   * `pilot`: a running pilot; `pilot_ended`: read-only until the enterprise pack is bought.
   */
  plan: 'enterprise' | 'pilot' | 'pilot_ended';
  writable: boolean;
  pilot: TenantPilot | null;
}

/**
 * The access of a tenant at `now`. A pilot is over at its `ends_at` whether or not the service
 * has recorded WorkspacePilotEnded yet, so the documented date holds to the second.
 */
export function tenantAccess(state: Extract<TenantState, { status: 'active' }>, now: Date): TenantAccess {
  const pilot = state.pilot;
  if (state.enterprise || !pilot) return { plan: 'enterprise', writable: true, pilot };
  const over = pilot.endedAt !== null || now.getTime() >= Date.parse(pilot.endsAt);
  return over ? { plan: 'pilot_ended', writable: false, pilot } : { plan: 'pilot', writable: true, pilot };
}
