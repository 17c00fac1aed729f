import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { leadDecider } from './lead.decider.js';

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
    );
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
      .thenThrows((e) => e.status === 409);
  });
});
