import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { z } from 'zod';
import { APP_CONFIG, type AppConfig, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { Operation, publicBaseUrl, type RequestOrigin } from '#http';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc, AnonymousLimit } from '#access';
import { ProjectionStore } from '#projections';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '../auth/agent-auth.js';
import { OBJECTIVE_VALUES, packForObjective, toObjective } from '../catalog/objectives.js';
import { findPack, PACK_IDS } from '../catalog/packs.js';
import { Idempotency } from '../idempotency/idempotency.service.js';
import { BillingService } from './billing.service.js';
import { CheckoutService } from './checkout.service.js';

type HttpRequest = RequestOrigin & { headers: Record<string, string | string[] | undefined> };
interface Reply {
  header(name: string, value: string): Reply;
  code(status: number): Reply;
  send(body?: unknown): unknown;
}

const checkoutLinkQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  pack_id: z.enum(PACK_IDS).optional().describe('Default: the objective’s pack, else pack_29.'),
  source: z.string().trim().min(1).max(200).optional(),
  key_id: z
    .string()
    .regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a key id (key_…)')
    .optional()
    .describe(
      'The agent key the credits go to (its account). Without it, paying opens a new account whose key the success page shows once.',
    ),
});

const attachBody = z.object({
  payment_method_id: z.string().trim().min(3).max(255),
  setup_intent_id: z
    .string()
    .trim()
    .min(3)
    .max(255)
    .optional()
    .describe('The confirmed setup intent (checked when given).'),
});

const topupChargeBody = z.object({
  payment_method_id: z.string().trim().min(3).max(255),
  pack_id: z.enum(PACK_IDS),
  save_for_autopay: z
    .boolean()
    .default(false)
    .describe('true: keep this method and pack for automatic recharge (D19).'),
});

const topupCheckoutBody = z.object({
  pack_id: z.enum(PACK_IDS),
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  source: z.string().trim().min(1).max(200).optional(),
});

const AUTH = ['apiKey', 'bearer'] as Array<'apiKey' | 'bearer'>;

/** Checkout links and direct billing (spec "Agent data API: onboarding and billing"). */
@Controller('api/v1')
export class BillingController {
  constructor(
    private readonly billing: BillingService,
    private readonly checkouts: CheckoutService,
    private readonly projections: ProjectionStore,
    private readonly idempotency: Idempotency,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('agents/checkout-link')
  @AnonymousLimit('write')
  @Operation({
    summary: 'Hosted checkout for a pack (bound to a key, or opening a new account)',
    description:
      'Opens a hosted checkout for the pack whose credits go to the account of key_id. Without key_id the checkout is unbound: paying it opens a new account, and the checkout success page shows its key once. Answers 303 to the checkout page, or 200 {url, …} when the request prefers application/json.',
    tags: ['agent billing'],
    operationId: 'agentCheckoutLink',
    query: checkoutLinkQuery,
    responses: {
      200: { description: 'With Accept: application/json: the checkout address.' },
      303: { description: 'Location: the hosted checkout.' },
      404: { description: 'KEY_NOT_FOUND: no active agent key with that id.' },
    },
  })
  async checkoutLink(
    @Query() query: z.output<typeof checkoutLinkQuery>,
    @Req() request: HttpRequest,
    @Res() reply: Reply,
  ): Promise<void> {
    let key: ApiKeyDoc | null = null;
    if (query.key_id) {
      key = await this.projections.collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION).get(query.key_id);
      if (!key || key.surface !== 'agent' || key.revoked_at !== null)
        throw Errors.notFound('No active agent key with that id.', 'KEY_NOT_FOUND');
    }
    const pack = findPack(query.pack_id ?? packForObjective(query.objective))!;
    const baseUrl = publicBaseUrl(request, this.config);
    const session = await this.checkouts.open({
      accountId: key?.account_id ?? null,
      keyId: key?.id ?? null,
      pack,
      purpose: 'checkout_link',
      objective: toObjective(query.objective) ?? null,
      source: query.source ?? null,
      email: null,
      baseUrl,
    });
    const body = {
      url: session.url,
      session_id: session.id,
      provider: this.checkouts.providerName,
      pack_id: pack.pack_id,
      amount_usd: pack.amount_cents / 100,
      credits_usd: pack.credits_cents / 100,
      key_id: key?.id ?? null,
      bound: key !== null,
      expires_at: session.expiresAt,
    };
    if (prefersJson(request.headers.accept)) {
      reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
      return;
    }
    reply
      .code(303)
      .header('location', session.url)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));
  }

  @Post('billing/setup-intent')
  @HttpCode(201)
  @AgentAuth()
  @Operation({
    summary: 'Start saving a payment method for off-session charges',
    description:
      'Returns the client_secret to confirm with the payment processor’s client SDK (sandbox: its confirm endpoint), then attach the method.',
    tags: ['agent billing'],
    operationId: 'billingSetupIntent',
    responses: {
      201: { description: '{setup_intent_id, client_secret, status, provider, customer_id, next_actions}.' },
    },
    security: AUTH,
  })
  setupIntent(@CurrentAgent() agent: AgentPrincipal, @Req() request: HttpRequest) {
    return this.billing.setupIntent(agent, publicBaseUrl(request, this.config));
  }

  @Post('billing/payment-methods/attach')
  @HttpCode(200)
  @AgentAuth()
  @Operation({
    summary: 'Attach a confirmed payment method to the account',
    tags: ['agent billing'],
    operationId: 'billingAttachPaymentMethod',
    body: attachBody,
    responses: {
      200: { description: 'The saved method (brand, last4).' },
      400: { description: 'PAYMENT_METHOD_INVALID or SETUP_INTENT_NOT_CONFIRMED.' },
    },
    security: AUTH,
  })
  attach(@Body() body: z.output<typeof attachBody>, @CurrentAgent() agent: AgentPrincipal) {
    return this.billing.attach(agent, body);
  }

  @Post('billing/topups/charge')
  @HttpCode(200)
  @AgentAuth()
  @Operation({
    summary: 'Charge a saved payment method for a pack (off-session)',
    description:
      'Credits the pack at once when the payment succeeds. save_for_autopay=true keeps method and pack for automatic recharge: after a charge leaves the balance under the threshold (default 10 USD) one top-up of that pack is charged (D19). A decline answers 402 PAYMENT_DECLINED with a hosted checkout as the next action. Honours Idempotency-Key (recommended: it is also the payment’s idempotency key at the provider).',
    tags: ['agent billing'],
    operationId: 'billingTopupCharge',
    body: topupChargeBody,
    responses: {
      200: { description: '{status, payment_intent_id, pack_id, credited, balance_usd, autopay}.' },
      400: { description: 'PAYMENT_METHOD_NOT_ATTACHED' },
      402: { description: 'PAYMENT_DECLINED with next_actions.' },
    },
    security: AUTH,
  })
  async topupCharge(
    @Body() body: z.output<typeof topupChargeBody>,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const header = request.headers['idempotency-key'];
    const clientKey = Array.isArray(header) ? header[0] : header;
    // The provider-side idempotency key: the client's (per account) when given, else a fresh one.
    const providerKey = clientKey ? `topup-${agent.accountId}-${clientKey}` : `topup-${this.ids.next('att')}`;
    return this.idempotency.run(request, reply, `POST /api/v1/billing/topups/charge ${agent.accountId}`, body, () =>
      this.billing.chargeTopup(agent, body, providerKey, publicBaseUrl(request, this.config)),
    );
  }

  @Post('billing/topups/checkout')
  @HttpCode(201)
  @AgentAuth()
  @Operation({
    summary: 'Hosted checkout for a top-up (fallback when no card is saved)',
    tags: ['agent billing'],
    operationId: 'billingTopupCheckout',
    body: topupCheckoutBody,
    responses: { 201: { description: '{url, session_id, pack_id, amount_usd, credits_usd}.' } },
    security: AUTH,
  })
  topupCheckout(
    @Body() body: z.output<typeof topupCheckoutBody>,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: HttpRequest,
  ) {
    return this.billing.topupCheckout(agent, body, publicBaseUrl(request, this.config));
  }

  @Get('billing/autopay')
  @AgentAuth()
  @Operation({
    summary: 'Autopay state (D19)',
    tags: ['agent billing'],
    operationId: 'billingAutopay',
    responses: { 200: { description: 'Autopay state and balance.' } },
    security: AUTH,
  })
  autopay(@CurrentAgent() agent: AgentPrincipal) {
    return this.billing.autopay(agent);
  }

  @Delete('billing/autopay')
  @AgentAuth()
  @Operation({
    summary: 'Turn autopay off',
    description: 'Turn it on again with POST /billing/topups/charge and save_for_autopay=true.',
    tags: ['agent billing'],
    operationId: 'billingDisableAutopay',
    responses: { 200: { description: 'Autopay state and balance.' } },
    security: AUTH,
  })
  disableAutopay(@CurrentAgent() agent: AgentPrincipal) {
    return this.billing.disableAutopay(agent);
  }
}

/** True when the client asks for JSON rather than a page (agents), by the Accept header. */
export function prefersJson(accept: string | string[] | undefined): boolean {
  const value = (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).toLowerCase();
  if (!value.includes('json')) return false;
  return !value.includes('text/html') || value.indexOf('json') < value.indexOf('text/html');
}
