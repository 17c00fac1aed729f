/**
 * When a call fails: GET /api/v1/agents/recovery (what to do per status) and /agents/errors
 * (the error catalogue of error-catalog.ts, the anchor of every problem+json `type`).
 */
import { z } from 'zod';
import {
  AGENT_ERRORS,
  type CatalogContext,
  endpointUrl,
  envelopeSchema,
  packCheckoutUrl,
  STARTER_PACK_ID,
} from '#agent-contract';
import { strings, url } from './catalog.schemas.js';
import { fillText, TEXTS } from './document-texts.js';

// ---------------------------------------------------------------- recovery

export function buildRecovery(ctx: CatalogContext) {
  const codes = (status: number) => AGENT_ERRORS.filter((x) => x.status === status).map((x) => x.code);
  const checkout = packCheckoutUrl(ctx, { objective: 'starter', pack_id: STARTER_PACK_ID, source: 'recovery' });
  return {
    summary: TEXTS.recovery.summary,
    by_status: TEXTS.recovery.by_status.map(({ status, cause, steps }) => ({
      status,
      codes: codes(status),
      cause: fillText(ctx, cause),
      steps: steps.map((step) => fillText(ctx, step, { recovery_checkout: checkout })),
    })),
    retry_safety: TEXTS.recovery.retry_safety,
    errors_catalog: endpointUrl(ctx, 'errors'),
  };
}

export const recoverySchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    by_status: z
      .array(z.strictObject({ status: z.int(), codes: strings.min(1), cause: z.string(), steps: strings.min(1) }))
      .min(1),
    retry_safety: z.string(),
    errors_catalog: url,
  }),
  'AgentRecovery',
);

// ---------------------------------------------------------------- errors

export function buildErrorCatalog(ctx: CatalogContext) {
  const typeBase = `${endpointUrl(ctx, 'errors')}#`;
  return {
    format: {
      content_type: 'application/problem+json',
      fields: ['type', 'title', 'status', 'error', 'message', 'code'],
      note: TEXTS.error_catalog.note,
    },
    type_base: typeBase,
    errors: [...AGENT_ERRORS]
      .sort((a, b) => a.status - b.status)
      .map((x) => ({
        code: x.code,
        status: x.status,
        error: x.error,
        type: `${typeBase}${x.code}`,
        meaning: x.meaning,
        action: x.action,
        ...(x.headers?.length ? { headers: [...x.headers] } : {}),
      })),
  };
}

export const errorCatalogSchema = envelopeSchema(
  z.strictObject({
    format: z.strictObject({ content_type: z.literal('application/problem+json'), fields: strings, note: z.string() }),
    type_base: url,
    errors: z
      .array(
        z.strictObject({
          code: z.string().regex(/^[A-Z][A-Z0-9_]+$/),
          status: z.int().min(400).max(599),
          error: z.string(),
          type: url,
          meaning: z.string().min(1),
          action: z.string().min(1),
          /** Response headers that come with it (absent: none beyond the usual). */
          headers: strings.min(1).optional(),
        }),
      )
      .min(1),
  }),
  'AgentErrorCatalog',
);
