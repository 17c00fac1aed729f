/**
 * GET /api/v1/agents/leads: what an operator-pilot lead submission (POST, submit-lead/) carries.
 */
import { z } from 'zod';
import {
  type CatalogContext,
  endpointUrl,
  envelopeSchema,
  findPack,
  OBJECTIVE_PACK,
  OPERATOR_PILOT_DAYS,
  SERVICE_CATALOG,
  SERVICE_KEYS,
  STARTER_PACK_ID,
} from '#agent-contract';
import { enterprisePageUrl } from '../catalog.document.js';
import { packId, url, usd } from '../catalog.schemas.js';
import { usdText } from '../information.parts.js';
import { centsToUsd } from '#kernel';
import { enterprisePath, pilotLifecycle } from '../enterprise-path.js';

export function buildLeadsInfo(ctx: CatalogContext) {
  const pack = findPack(OBJECTIVE_PACK.operator_pilot)!;
  return {
    purpose: `Ask for a ${OPERATOR_PILOT_DAYS}-day operator pilot or an enterprise workspace (tenant-bound keys, workspace, events and webhooks).`,
    method: 'POST' as const,
    url: endpointUrl(ctx, 'leads'),
    fields: [
      { name: 'contact_email', type: 'string (email)', required: true, description: 'Where to reach the operator' },
      { name: 'company', type: 'string', required: false, description: 'Organisation name' },
      { name: 'agent_name', type: 'string', required: false, description: 'The agent that will use the workspace' },
      { name: 'use_case', type: 'string', required: false, description: 'What the pilot should prove' },
      { name: 'objective', type: 'string', required: false, description: 'operator_pilot (default) or enterprise' },
      { name: 'pack_id', type: 'string', required: false, description: `Pack to fund it (default ${pack.pack_id})` },
      {
        name: 'expected_monthly_calls',
        type: 'integer',
        required: false,
        description: 'Expected paid calls per month',
      },
      { name: 'message', type: 'string', required: false, description: 'Anything else (up to 2000 characters)' },
      { name: 'source_ref', type: 'string', required: false, description: 'Referral reference' },
    ],
    example: {
      contact_email: 'operator@example.com',
      company: 'Example Ventures',
      agent_name: 'deal-flow-agent',
      use_case: 'screen inbound startups daily and keep memos in a shared workspace',
      objective: 'operator_pilot',
      pack_id: pack.pack_id,
      expected_monthly_calls: 5000,
    },
    response:
      '201 with data.lead_id, data.status "received", the pilot terms and the checkout link of the pack. Send your agent key with the lead (x-api-key, optional) so a conversion puts the tenant on your account.',
    pilot: {
      duration_days: OPERATOR_PILOT_DAYS,
      pack_id: pack.pack_id,
      amount_usd: centsToUsd(pack.amount_cents),
      credits_usd: centsToUsd(pack.credits_cents),
      services: SERVICE_CATALOG.filter((s) => s.access === 'enterprise').map((s) => s.key),
      lifecycle: pilotLifecycle(),
    },
    enterprise_path: enterprisePath(ctx),
    self_serve_alternative: `Not ready for a pilot? POST ${endpointUrl(ctx, 'pay')} buys a ${usdText(findPack(STARTER_PACK_ID)!.amount_cents)} proof pack now.`,
    enterprise_page: enterprisePageUrl(ctx),
  };
}

export const leadsInfoSchema = envelopeSchema(
  z.strictObject({
    purpose: z.string(),
    method: z.literal('POST'),
    url,
    fields: z
      .array(z.strictObject({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string() }))
      .min(1),
    example: z.record(z.string(), z.unknown()),
    response: z.string(),
    pilot: z.strictObject({
      duration_days: z.int(),
      pack_id: packId,
      amount_usd: usd,
      credits_usd: usd,
      services: z.array(z.enum(SERVICE_KEYS)),
      lifecycle: z.array(z.string()).min(1),
    }),
    enterprise_path: z.array(z.string()).min(1),
    self_serve_alternative: z.string(),
    enterprise_page: url,
  }),
  'AgentLeadsInfo',
);
