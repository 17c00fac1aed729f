import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { tenantAccess, tenantDecider, type TenantCommand, type TenantState } from './tenant.decider.js';
import type { WorkspaceEvent } from './workspace.events.js';

const spec = deciderSpec(tenantDecider);
const start = new Date('2026-05-01T09:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const at = (ms: number) => new Date(start.getTime() + ms);

type TenantEvent = Parameters<typeof tenantDecider.evolve>[1];
const created: TenantEvent = {
  type: 'WorkspaceTenantCreated',
  data: { tenant_id: 'tn_1', name: 'Acme', owner_account_id: 'acct_1', created_at: start.toISOString() },
};
const pilotStarted: TenantEvent = {
  type: 'WorkspacePilotStarted',
  data: {
    tenant_id: 'tn_1',
    days: 14,
    started_at: start.toISOString(),
    ends_at: at(14 * DAY).toISOString(),
    source: 'purchase',
    reference: 'cs_1',
  },
};
const pilotEnded: TenantEvent = {
  type: 'WorkspacePilotEnded',
  data: { tenant_id: 'tn_1', ends_at: at(14 * DAY).toISOString(), ended_at: at(14 * DAY + 60_000).toISOString() },
};
const enterprise = (ms: number, reference = 'cs_2'): TenantEvent => ({
  type: 'WorkspaceEnterpriseActivated',
  data: { tenant_id: 'tn_1', activated_at: at(ms).toISOString(), source: 'purchase', reference },
});
const startPilot = (now: Date, reference = 'cs_1'): TenantCommand => ({
  type: 'StartPilot',
  days: 14,
  source: 'purchase',
  reference,
  now,
});
const activate = (now: Date, reference = 'cs_2'): TenantCommand => ({
  type: 'ActivateEnterprise',
  source: 'purchase',
  reference,
  now,
});
const endPilot = (now: Date): TenantCommand => ({ type: 'EndPilot', now });

function stateOf(events: WorkspaceEvent[]): Extract<TenantState, { status: 'active' }> {
  const state = events.reduce(
    (s, e) => tenantDecider.evolve(s, e as TenantEvent),
    tenantDecider.initialState as TenantState,
  );
  assert.equal(state.status, 'active');
  return state as Extract<TenantState, { status: 'active' }>;
}

describe('tenant plan: the operator pilot and enterprise access (ADR 0078)', () => {
  it('given a tenant, when a pilot starts, then it ends 14 days later; a second start changes nothing', () => {
    spec.given([created]).when(startPilot(start)).then([pilotStarted]);
    spec
      .given([created, pilotStarted])
      .when(startPilot(at(DAY), 'cs_9'))
      .then([]);
    spec
      .given([created, pilotStarted, pilotEnded])
      .when(startPilot(at(20 * DAY), 'cs_9'))
      .then([]);
  });

  it('given no tenant, when a pilot starts or enterprise is activated, then TENANT_NOT_FOUND', () => {
    spec
      .given([])
      .when(startPilot(start))
      .thenThrows((e) => e.code === 'TENANT_NOT_FOUND' && e.kind === 'not_found');
    spec
      .given([])
      .when(activate(start))
      .thenThrows((e) => e.code === 'TENANT_NOT_FOUND');
  });

  it('given enterprise access, when a pilot would start, then nothing (enterprise supersedes it)', () => {
    spec
      .given([created, enterprise(0)])
      .when(startPilot(start))
      .then([]);
  });

  it('given enterprise access, when activated again (a redelivered payment, a second pack), then nothing', () => {
    spec
      .given([created])
      .when(activate(at(DAY)))
      .then([enterprise(DAY)]);
    spec
      .given([created, enterprise(DAY)])
      .when(activate(at(2 * DAY), 'cs_3'))
      .then([]);
  });

  it('given a running pilot, when the end is asked before ends_at, then nothing; at ends_at, then PilotEnded', () => {
    spec
      .given([created, pilotStarted])
      .when(endPilot(at(14 * DAY - 1)))
      .then([]);
    spec
      .given([created, pilotStarted])
      .when(endPilot(at(14 * DAY + 60_000)))
      .then([pilotEnded]);
  });

  it('given an ended pilot, or one lifted by enterprise, or none, when ended again, then nothing', () => {
    spec
      .given([created, pilotStarted, pilotEnded])
      .when(endPilot(at(30 * DAY)))
      .then([]);
    spec
      .given([created, pilotStarted, enterprise(3 * DAY)])
      .when(endPilot(at(30 * DAY)))
      .then([]);
    spec
      .given([created])
      .when(endPilot(at(30 * DAY)))
      .then([]);
  });

  it('access: writable during the pilot, read-only from ends_at (recorded or not), writable again with enterprise', () => {
    const running = stateOf([created, pilotStarted]);
    assert.deepEqual([tenantAccess(running, at(DAY)).plan, tenantAccess(running, at(DAY)).writable], ['pilot', true]);
    assert.deepEqual(
      [tenantAccess(running, at(14 * DAY)).plan, tenantAccess(running, at(14 * DAY)).writable],
      ['pilot_ended', false],
      'the documented end holds before the service records it',
    );
    const ended = stateOf([created, pilotStarted, pilotEnded]);
    assert.equal(tenantAccess(ended, at(DAY)).writable, false, 'a recorded end is final');
    const lifted = stateOf([created, pilotStarted, pilotEnded, enterprise(20 * DAY)]);
    assert.deepEqual(
      [tenantAccess(lifted, at(20 * DAY)).plan, tenantAccess(lifted, at(20 * DAY)).writable],
      ['enterprise', true],
    );
    const operatorMade = stateOf([created]);
    assert.equal(tenantAccess(operatorMade, at(100 * DAY)).plan, 'enterprise', 'a tenant with no pilot is enterprise');
  });
});
