import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Decider } from '#kernel';
import { MemoryProjection } from '#projections/testing';
import type { ProjectionDefinition } from '#projections';
import { leadDecider, type LeadCommand } from '../../libs/agent-workspace/src/leads/lead.decider.js';
import { leadStream } from '../../libs/agent-workspace/src/leads/lead.events.js';
import { leadsProjection } from '../../libs/agent-surface/src/catalog/leads/leads.projection.js';
import { tenantDecider, type TenantCommand } from '../../libs/agent-workspace/src/tenant.decider.js';
import { tenantStream } from '../../libs/agent-workspace/src/workspace.events.js';
import { workspaceProjection } from '../../libs/agent-workspace/src/workspace.projection.js';

type Stored = [stream: string, event: { type: string; data: unknown }];
const t = (day: number) => new Date(Date.UTC(2026, 4, 1 + day, 9));

/** The events a decider produces for these commands, in order, on one stream. */
function history<C, E extends { type: string; data: unknown }, S>(
  decider: Decider<C, E, S>,
  stream: string,
  commands: C[],
): Stored[] {
  let state = decider.initialState;
  const out: Stored[] = [];
  for (const command of commands)
    for (const event of decider.decide(command, state)) {
      state = decider.evolve(state, event);
      out.push([stream, event]);
    }
  return out;
}

/** Each event applied twice in a row leaves what applying it once did; answers the final documents. */
async function appliedTwice(projection: ProjectionDefinition, events: Stored[]) {
  const twice = new MemoryProjection(projection);
  const once = new MemoryProjection(projection);
  for (const [stream, event] of events) {
    const recorded = twice.record(stream, event);
    await twice.apply(recorded);
    const after = twice.snapshot();
    await twice.apply(recorded);
    assert.deepEqual(twice.snapshot(), after, `${projection.name}: ${event.type} applied twice`);
    await once.apply(once.record(stream, event));
  }
  assert.deepEqual(twice.snapshot(), once.snapshot(), 'a replay from the start gives the same documents');
  return once.snapshot();
}

describe('leads and tenant plans: projections (ADR 0078)', () => {
  it('leads: a lead sent with a key, then converted onto its account', async () => {
    const events = history(leadDecider, leadStream('lead_1'), [
      {
        type: 'SubmitLead',
        leadId: 'lead_1',
        contactEmail: 'Ops@Acme.example',
        company: 'Acme',
        caller: { accountId: 'acct_1', keyId: 'key_1' },
        now: t(0),
      },
      { type: 'ConvertLead', tenantId: 'tn_1', accountId: 'acct_1', newAccount: false, now: t(1) },
    ] satisfies LeadCommand[]);
    const docs = await appliedTwice(leadsProjection, events);
    assert.deepEqual(docs.leads!.lead_1, {
      id: 'lead_1',
      status: 'converted',
      submitted_at: t(0).toISOString(),
      contact_email: 'ops@acme.example',
      company: 'Acme',
      agent_name: null,
      use_case: null,
      objective: 'operator_pilot',
      pack_id: 'pack_2499',
      expected_monthly_calls: null,
      message: null,
      source_ref: null,
      pilot_days: 14,
      account_id: 'acct_1',
      key_id: 'key_1',
      tenant_id: 'tn_1',
      converted_account_id: 'acct_1',
      plan: 'pilot',
      converted_at: t(1).toISOString(),
    });
  });

  it('workspace tenants: a pilot runs, ends, and enterprise lifts it; the sweeper finds only running ones', async () => {
    const commands: TenantCommand[] = [
      { type: 'CreateTenant', tenantId: 'tn_1', name: 'Acme', ownerAccountId: 'acct_1', now: t(0) },
      { type: 'StartPilot', days: 14, source: 'purchase', reference: 'cs_1', now: t(0) },
    ];
    const running = await appliedTwice(workspaceProjection, history(tenantDecider, tenantStream('tn_1'), commands));
    assert.equal(running.ws_tenants!.tn_1!.pilot_state, 'running');
    assert.equal(running.ws_tenants!.tn_1!.pilot_ends_at, t(14).toISOString());

    commands.push({ type: 'EndPilot', now: t(14) });
    const ended = await appliedTwice(workspaceProjection, history(tenantDecider, tenantStream('tn_1'), commands));
    assert.equal(ended.ws_tenants!.tn_1!.pilot_state, 'ended');
    assert.equal(ended.ws_tenants!.tn_1!.pilot_ended_at, t(14).toISOString());

    commands.push({ type: 'ActivateEnterprise', source: 'purchase', reference: 'cs_2', now: t(20) });
    const lifted = await appliedTwice(workspaceProjection, history(tenantDecider, tenantStream('tn_1'), commands));
    assert.equal(lifted.ws_tenants!.tn_1!.pilot_state, 'lifted');
    assert.equal(lifted.ws_tenants!.tn_1!.enterprise_at, t(20).toISOString());
    assert.deepEqual(Object.keys(lifted.ws_events ?? {}), [], 'plan events are not tenant stream events');
  });
});
