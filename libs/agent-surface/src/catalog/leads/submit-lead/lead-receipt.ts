import { type CatalogContext, endpointUrl, isPackId, packCheckoutUrl } from '#agent-contract';
import type { SubmittedLead } from './submit-lead.command.js';

/** The answer to POST /agents/leads: the lead's reference, and how to start at once by paying. */
export function leadReceipt(lead: SubmittedLead, ctx: Pick<CatalogContext, 'baseUrl'>) {
  const packId = isPackId(lead.pack_id) ? lead.pack_id : 'pack_2499';
  const checkout = packCheckoutUrl(ctx, { objective: lead.objective, pack_id: packId, source: 'leads' });
  return {
    lead_id: lead.lead_id,
    status: 'received' as const,
    received_at: lead.received_at,
    objective: lead.objective,
    pack_id: packId,
    pilot_days: lead.pilot_days,
    checkout_redirect_url: checkout,
    next_steps: [
      `The lead is recorded as ${lead.lead_id}; keep it for reference when the operator team writes to your contact email.`,
      `To start now, fund the pilot: POST ${endpointUrl(ctx, 'pay')} with {"objective":"${lead.objective}","pack_id":"${packId}"}, or open checkout_redirect_url.`,
      `The pilot runs ${lead.pilot_days} days from the moment it starts (payment fulfilled, or the lead converted by an operator); then the workspace is read-only until the enterprise pack is bought.`,
    ],
  };
}
