import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import { LEAD_EVENT_TYPES, type LeadEvent } from '#agent-workspace';

export const LEADS_PROJECTION = 'leads';
export const LEADS_COLLECTION = 'leads';

/** A lead as operators list it (`svc leads list`). */
export interface LeadDoc {
  [key: string]: unknown;
  id: string;
  status: 'received' | 'converted';
  submitted_at: string;
  contact_email: string;
  company: string | null;
  agent_name: string | null;
  use_case: string | null;
  objective: string;
  pack_id: string;
  expected_monthly_calls: number | null;
  message: string | null;
  source_ref: string | null;
  pilot_days: number;
  /** The account and key the lead was sent with (null: sent without a key). */
  account_id: string | null;
  key_id: string | null;
  /** Set once converted. */
  tenant_id: string | null;
  converted_account_id: string | null;
  plan: 'pilot' | 'enterprise' | null;
  converted_at: string | null;
}

/** The operators' list of leads: one document per lead, received or converted. */
export const leadsProjection: ProjectionDefinition = {
  name: LEADS_PROJECTION,
  version: 1,
  eventTypes: LEAD_EVENT_TYPES,
  collections: [
    {
      name: LEADS_COLLECTION,
      indexes: [
        {
          fields: [
            ['status', 1],
            ['submitted_at', 1],
          ],
        },
        { fields: [['submitted_at', 1]] },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as LeadEvent;
    switch (event.type) {
      case 'OperatorPilotLeadSubmitted': {
        const d = event.data;
        const existing = await ctx.get<LeadDoc>(LEADS_COLLECTION, d.lead_id);
        const doc: LeadDoc = {
          id: d.lead_id,
          status: existing?.status ?? 'received',
          submitted_at: d.submitted_at,
          contact_email: d.contact_email,
          company: d.company,
          agent_name: d.agent_name,
          use_case: d.use_case,
          objective: d.objective,
          pack_id: d.pack_id,
          expected_monthly_calls: d.expected_monthly_calls,
          message: d.message,
          source_ref: d.source_ref,
          pilot_days: d.pilot_days,
          account_id: d.account_id ?? null,
          key_id: d.key_id ?? null,
          tenant_id: existing?.tenant_id ?? null,
          converted_account_id: existing?.converted_account_id ?? null,
          plan: existing?.plan ?? null,
          converted_at: existing?.converted_at ?? null,
        };
        ctx.upsert(LEADS_COLLECTION, doc);
        return;
      }
      case 'LeadConverted': {
        const d = event.data;
        const existing = await ctx.get<LeadDoc>(LEADS_COLLECTION, d.lead_id);
        if (!existing) throw new Error(`LeadConverted for ${d.lead_id} before its OperatorPilotLeadSubmitted`);
        ctx.upsert(LEADS_COLLECTION, {
          ...existing,
          status: 'converted',
          tenant_id: d.tenant_id,
          converted_account_id: d.account_id,
          plan: d.plan,
          converted_at: d.converted_at,
        } satisfies LeadDoc);
        return;
      }
    }
  },
};
