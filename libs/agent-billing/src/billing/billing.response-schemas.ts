import { z } from 'zod';
import { PACK_IDS } from '#agent-contract';

/**
 * The bodies the billing routes answer, for their OpenAPI operations (the handlers build them
 * in billing.service.ts; the int tests check every answer against the served document).
 */
const usd = z.number().describe('US dollars.');
const packId = z.enum(PACK_IDS);

const nextAction = z.looseObject({
  action: z.string(),
  method: z.string(),
  url: z.string().describe('An absolute URL, or for CLIENT_SDK the client call to make.'),
  description: z.string().optional(),
});

export const autopayStateSchema = z
  .object({
    enabled: z.boolean(),
    pack_id: packId.nullable().describe('The pack each top-up buys (null when off).'),
    payment_method_id: z.string().nullable(),
    disabled_reason: z.string().nullable().describe('Why it was turned off (null when on or never enabled).'),
    last_failure: z.string().nullable().describe('Reason of the last failed autopay attempt.'),
    pending: z
      .object({ attempt_id: z.string(), pack_id: packId, triggered_at: z.string() })
      .nullable()
      .describe('A top-up in flight (never two at once).'),
  })
  .meta({ id: 'AutopayState' });

export const autopayResponseSchema = z
  .object({ autopay: autopayStateSchema, balance_usd: usd })
  .meta({ id: 'AutopayResponse' });

export const setupIntentResponseSchema = z
  .object({
    setup_intent_id: z.string(),
    client_secret: z.string().describe('Confirm it with the payment processor’s client SDK.'),
    status: z.string(),
    provider: z.string(),
    customer_id: z.string(),
    usage: z.literal('off_session'),
    next_actions: z.array(nextAction),
  })
  .meta({ id: 'SetupIntent' });

export const attachedPaymentMethodSchema = z
  .object({
    payment_method: z.object({
      id: z.string(),
      brand: z.string().nullable(),
      last4: z.string().nullable(),
      exp_month: z.number().int().nullable(),
      exp_year: z.number().int().nullable(),
    }),
    attached: z.literal(true),
    next: z.string(),
  })
  .meta({ id: 'AttachedPaymentMethod' });

export const topupChargeSchema = z
  .object({
    status: z.enum(['succeeded', 'pending']),
    payment_intent_id: z.string(),
    pack_id: packId,
    amount_usd: usd,
    credits_usd: usd,
    credited: z.boolean().describe('False while the payment is pending: credited on fulfilment.'),
    balance_usd: usd,
    autopay: autopayStateSchema,
  })
  .meta({ id: 'TopupCharge' });

export const topupCheckoutSchema = z
  .object({
    url: z.string().describe('The hosted checkout page.'),
    session_id: z.string(),
    provider: z.string(),
    pack_id: packId,
    amount_usd: usd,
    credits_usd: usd,
    expires_at: z.string().nullable(),
  })
  .meta({ id: 'TopupCheckout' });
