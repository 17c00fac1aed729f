import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { leadDecider } from './lead.decider.js';
import type { LeadEvent } from './lead.events.js';

type Submitted = Extract<LeadEvent, { type: 'OperatorPilotLeadSubmitted' }>;

describe('lead decider', () => {
  const spec = deciderSpec(leadDecider);
  const now = new Date('2026-03-01T10:00:00.000Z');

  it('records a new lead with the pilot terms and defaults', () => {
    spec
      .given([])
      .when({ type: 'SubmitLead', leadId: 'lead_1', contactEmail: ' Ops@Example.com ', useCase: 'screen deals', now })
      .then([
        {
          type: 'OperatorPilotLeadSubmitted',
          data: {
            lead_id: 'lead_1',
            contact_email: 'ops@example.com',
            company: null,
            agent_name: null,
            use_case: 'screen deals',
            objective: 'operator_pilot',
            pack_id: 'pack_2499',
            expected_monthly_calls: null,
            message: null,
            source_ref: null,
            pilot_days: 14,
            submitted_at: '2026-03-01T10:00:00.000Z',
          },
        },
      ]);
  });

  it('funds an enterprise lead with pack_10000 unless a pack is named, and refuses a second submit on the same id', () => {
    const given = spec.given([]);
    const events = leadDecider.decide(
      { type: 'SubmitLead', leadId: 'lead_2', contactEmail: 'a@b.co', objective: 'enterprise', now },
      leadDecider.initialState,
    ) as Submitted[];
    assert.equal(events[0]!.data.pack_id, 'pack_10000');
    given
      .when({
        type: 'SubmitLead',
        leadId: 'lead_2',
        contactEmail: 'a@b.co',
        objective: 'enterprise',
        packId: 'pack_499',
        now,
      })
      .then([{ ...events[0]!, data: { ...events[0]!.data, pack_id: 'pack_499' } }]);
    spec
      .given(events)
      .when({ type: 'SubmitLead', leadId: 'lead_2', contactEmail: 'a@b.co', now })
      .thenThrows((e) => e.kind === 'conflict');
  });

  describe('conversion by an operator (ADR 0078)', () => {
    const submitted: Submitted = {
      type: 'OperatorPilotLeadSubmitted',
      data: {
        lead_id: 'lead_3',
        contact_email: 'ops@example.com',
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
        submitted_at: now.toISOString(),
      },
    };
    const convert = { type: 'ConvertLead' as const, tenantId: 'tn_1', accountId: 'acct_1', newAccount: false, now };
    const converted: LeadEvent = {
      type: 'LeadConverted',
      data: {
        lead_id: 'lead_3',
        tenant_id: 'tn_1',
        account_id: 'acct_1',
        new_account: false,
        plan: 'pilot',
        converted_by: 'operator',
        converted_at: now.toISOString(),
      },
    };

    it('records the key the lead came with', () => {
      spec
        .given([])
        .when({
          type: 'SubmitLead',
          leadId: 'lead_3',
          contactEmail: 'ops@example.com',
          company: 'Acme',
          caller: { accountId: 'acct_1', keyId: 'key_1' },
          now,
        })
        .then([submitted]);
    });

    it('given a lead, when converted, then LeadConverted: a pilot for operator_pilot, enterprise for enterprise', () => {
      spec.given([submitted]).when(convert).then([converted]);
      const enterprise: Submitted = { ...submitted, data: { ...submitted.data, objective: 'enterprise' } };
      spec
        .given([enterprise])
        .when(convert)
        .then([{ ...converted, data: { ...converted.data, plan: 'enterprise' } } as LeadEvent]);
    });

    it('given a converted lead, when the same conversion runs again, then nothing; onto another account, 409', () => {
      spec.given([submitted, converted]).when(convert).then([]);
      spec
        .given([submitted, converted])
        .when({ ...convert, tenantId: 'tn_2', accountId: 'acct_2' })
        .thenThrows(
          (e) => e.code === 'LEAD_ALREADY_CONVERTED' && e.kind === 'conflict' && e.extra.tenant_id === 'tn_1',
        );
    });

    it('given no lead, when converted, then LEAD_NOT_FOUND', () => {
      spec
        .given([])
        .when(convert)
        .thenThrows((e) => e.code === 'LEAD_NOT_FOUND' && e.kind === 'not_found');
    });
  });
});
