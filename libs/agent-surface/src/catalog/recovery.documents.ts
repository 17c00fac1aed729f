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

// ---------------------------------------------------------------- recovery

export function buildRecovery(ctx: CatalogContext) {
  const codes = (status: number) => AGENT_ERRORS.filter((x) => x.status === status).map((x) => x.code);
  return {
    summary:
      'Every error is problem+json with a stable code; its type URL points at the entry of the error catalogue. Every 4xx also lists next_actions: requests to make, with absolute URLs.',
    by_status: [
      {
        status: 401,
        codes: codes(401),
        cause:
          'No key, or a key that is malformed, unknown, revoked, from the platform surface or of the other environment.',
        steps: [
          'Send the key as x-api-key (or Authorization: Bearer).',
          `No working key: POST ${endpointUrl(ctx, 'pay')} issues a new account and key.`,
          `Key revoked or leaked: create another at ${endpointUrl(ctx, 'create_key')} and revoke the old one.`,
        ],
      },
      {
        status: 402,
        codes: codes(402),
        cause: 'The balance does not cover the meter price; nothing was charged.',
        steps: [
          'Read next_actions in the body (or the X-Next-Action and Link rel="payment" headers).',
          `Pay a checkout: GET ${packCheckoutUrl(ctx, { objective: 'starter', pack_id: STARTER_PACK_ID, source: 'recovery' })} with your key in x-api-key (the credits go to its account).`,
          `Or charge a saved method: POST ${endpointUrl(ctx, 'topup_charge')} with save_for_autopay true to avoid the next 402.`,
          'Retry the call once the purchase is completed.',
        ],
      },
      {
        status: 403,
        codes: codes(403),
        cause: 'The key lacks a scope or is not bound to a tenant (workspace operations).',
        steps: [`For a workspace: POST ${endpointUrl(ctx, 'leads')} to ask for an enterprise workspace.`],
      },
      {
        status: 409,
        codes: codes(409),
        cause: 'A concurrent request changed the same resource.',
        steps: ['Retry the request; charges and purchases are never doubled.'],
      },
      {
        status: 429,
        codes: codes(429),
        cause: `More than ${ctx.rateLimitPerMinute} requests per minute on one key.`,
        steps: [
          'Wait retry_after seconds (Retry-After header), then retry.',
          'Spread work over time; X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds) show the window.',
        ],
      },
      {
        status: 503,
        codes: codes(503),
        cause: 'A store is unreachable; nothing was written or charged.',
        steps: ['Retry after Retry-After seconds with exponential back-off.'],
      },
    ],
    retry_safety:
      'Paid reads are charged only on success, so retrying a failed read never double-charges. Use Idempotency-Key on POST /agents/pay and /agents/signup.',
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
      note: 'type is this catalogue with the code as fragment; every 4xx adds next_actions[{action, method, url, description}] (absolute URLs, the most useful first: how to get a key on 401, the operation documentation on 400, the list to pick an id from on 404, the resource to read again on 409/412, when to retry on 429); 400 VALIDATION_FAILED adds details[{path, message}]; 402 adds meter, price_usd and balance_usd; 429 adds retry_after.',
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
