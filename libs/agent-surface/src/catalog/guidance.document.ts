/**
 * Purchase guidance: GET /api/v1/agents/quote and GET /api/v1/agents/recommend-tier (spec
 * "Option entry in a purchase-guidance response" and the paragraph after it).
 */
import { z } from 'zod';
import {
  AGENT_ENDPOINTS,
  agentUrl,
  type CatalogContext,
  CREDIT_PACKS,
  type CreditPack,
  endpointStatus,
  endpointUrl,
  envelopeSchema,
  findPack,
  type KeyBinding,
  METER_NAMES,
  meterCostCents,
  type MeterName,
  type Objective,
  OBJECTIVE_PACK,
  OBJECTIVE_VALUES,
  type ObjectiveValue,
  OPERATOR_PILOT_DAYS,
  packCheckoutUrl,
  type PackId,
  QUICKSTART_WORKFLOWS,
  RECOMMENDED_OBJECTIVE,
  toObjective,
} from '#agent-contract';
import {
  enterpriseUpgrade,
  enterpriseUpgradeSchema,
  fastestRevenueBody,
  operatorPilotBody,
  type EnterpriseUpgrade,
  type PayRequestBody,
} from './catalog.document.js';
import { meter, objective, packId, payBodyTemplate, strings, url, urlTemplate, usd } from './catalog.schemas.js';
import { centsToUsd } from '#kernel';

/** Buyer segments (query `segment`); each implies an objective when none is given. */
export const SEGMENTS = ['builder', 'operator', 'enterprise'] as const;
export type Segment = (typeof SEGMENTS)[number];

const SEGMENT_OBJECTIVE: Record<Segment, Objective> = {
  builder: 'starter',
  operator: 'operator_pilot',
  enterprise: 'enterprise',
};
const OBJECTIVE_SEGMENT: Record<Objective, Segment> = {
  starter: 'builder',
  growth: 'builder',
  operator_pilot: 'operator',
  enterprise: 'enterprise',
};

export interface GuidanceRequest {
  objective?: ObjectiveValue;
  segment?: Segment;
  /** Quote this pack instead of the objective's. */
  pack_id?: PackId;
  /** Recommend the next larger pack (more bonus credits). */
  aggressive?: boolean;
  /** Attribution carried into every checkout link. */
  source: string;
  /** Binds the checkout links to an existing key (signed when the request carried the key). */
  binding?: KeyBinding;
}

export interface GuidanceOption {
  pack_id: PackId;
  amount_usd: number;
  credits_usd: number;
  effective_credits_usd: number;
  checkout_url: string | null;
  checkout_redirect_url: string;
  offer_code: string | null;
  preferred_for_objective: boolean;
}

export interface PathLink {
  objective: Objective;
  pack_id: PackId;
  checkout_redirect_url: string;
}

export interface PackValue {
  pack_id: PackId;
  amount_usd: number;
  credits_usd: number;
  bonus_usd: number;
  /** Successful calls the credits pay for, per meter, at the current prices. */
  calls_covered: Record<MeterName, number>;
  /** Full runs of each quickstart workflow the credits pay for. */
  workflows_covered: Record<string, number>;
}

export interface GuidanceData {
  objective: string;
  segment: Segment;
  recommended_objective: typeof RECOMMENDED_OBJECTIVE;
  aggressive: boolean;
  message: string;
  why_buy_now: string[];
  options: GuidanceOption[];
  primary_buy_now: {
    endpoint: string;
    method: 'POST';
    note: string;
    pack_id: PackId;
    amount_usd: number;
    offer_code: string | null;
  };
  selected_pack_value: PackValue;
  fastest_revenue_path: PayRequestBody;
  operator_pilot_payload_template: PayRequestBody;
  twenty_four_seven_path: PathLink;
  operator_pilot_path: PathLink & { duration_days: number };
  enterprise_upgrade: EnterpriseUpgrade;
  /** The operations served today, by name. */
  endpoints: Record<string, string>;
  /** Operations of the spec not served yet, by name; absent when none. */
  planned_endpoints?: Record<string, string>;
  payment_flow: string[];
}

/** The next larger pack (the largest stays). */
export function stepUpPack(id: PackId): PackId {
  const i = CREDIT_PACKS.findIndex((p) => p.pack_id === id);
  return CREDIT_PACKS[Math.min(i + 1, CREDIT_PACKS.length - 1)]!.pack_id;
}

export function packValue(ctx: CatalogContext, pack: CreditPack): PackValue {
  const calls = Object.fromEntries(
    METER_NAMES.map((m) => [m, ctx.prices[m] > 0 ? Math.floor(pack.credits_cents / ctx.prices[m]) : 0]),
  ) as Record<MeterName, number>;
  const workflows = Object.fromEntries(
    QUICKSTART_WORKFLOWS.map((w) => {
      const cost = meterCostCents(w.steps_mode === 'any_one' ? w.meters.slice(0, 1) : w.meters, ctx.prices);
      return [w.key, cost > 0 ? Math.floor(pack.credits_cents / cost) : 0];
    }),
  );
  return {
    pack_id: pack.pack_id,
    amount_usd: centsToUsd(pack.amount_cents),
    credits_usd: centsToUsd(pack.credits_cents),
    bonus_usd: centsToUsd(pack.credits_cents - pack.amount_cents),
    calls_covered: calls,
    workflows_covered: workflows,
  };
}

function link(ctx: CatalogContext, objective: Objective, source: string, binding?: KeyBinding): PathLink {
  const pack_id = OBJECTIVE_PACK[objective];
  return {
    objective,
    pack_id,
    checkout_redirect_url: packCheckoutUrl(ctx, { objective, pack_id, source, ...(binding ? { binding } : {}) }),
  };
}

const usdText = (cents: number) => `${centsToUsd(cents)} USD`;

export function buildGuidance(ctx: CatalogContext, request: GuidanceRequest): GuidanceData {
  const objective: Objective =
    toObjective(request.objective) ?? (request.segment ? SEGMENT_OBJECTIVE[request.segment] : 'starter');
  const segment = request.segment ?? OBJECTIVE_SEGMENT[objective];
  const aggressive = request.aggressive ?? false;
  const base = OBJECTIVE_PACK[objective];
  const chosenId = request.pack_id ?? (aggressive ? stepUpPack(base) : base);
  const chosen = findPack(chosenId)!;
  const keyPart = request.binding ? { binding: request.binding } : {};
  const checkout = (pack_id: PackId) =>
    packCheckoutUrl(ctx, { objective, pack_id, source: request.source, ...keyPart });

  const options: GuidanceOption[] = CREDIT_PACKS.map((p) => ({
    pack_id: p.pack_id,
    amount_usd: centsToUsd(p.amount_cents),
    credits_usd: centsToUsd(p.credits_cents),
    effective_credits_usd: centsToUsd(p.credits_cents),
    checkout_url: null,
    checkout_redirect_url: checkout(p.pack_id),
    offer_code: null,
    preferred_for_objective: p.pack_id === chosenId,
  }));

  const value = packValue(ctx, chosen);
  const bonus = chosen.credits_cents - chosen.amount_cents;
  const discovery = value.calls_covered['read.discovery_top'];
  const evaluations = value.workflows_covered['evaluate_company'] ?? 0;
  const message =
    (aggressive && !request.pack_id && chosenId !== base
      ? `Aggressive recommendation: ${chosenId} instead of ${base}. `
      : '') +
    `For objective ${objective} (segment ${segment}) buy ${chosen.pack_id} (${chosen.name}): ${usdText(chosen.amount_cents)} for ${usdText(chosen.credits_cents)} of credits, ` +
    `enough for ${discovery} discovery calls or ${evaluations} company evaluations at current prices.`;

  const why: string[] = [
    `One call gives a key and a checkout: POST ${endpointUrl(ctx, 'pay')} with {"objective":"${objective}","pack_id":"${chosen.pack_id}"}.`,
    `${chosen.pack_id} pays for ${discovery} discovery calls or ${evaluations} company evaluations at current prices.`,
    bonus > 0
      ? `${chosen.pack_id} grants ${usdText(bonus)} of bonus credits (${usdText(chosen.credits_cents)} for ${usdText(chosen.amount_cents)}).`
      : `Larger packs grant bonus credits: pack_99 gives 110 USD for 99 USD, up to pack_10000 with 12500 USD for 10000 USD.`,
    'Only successful calls are charged; each charge is committed before the data is sent and shown in X-Credits-Charged and X-Credits-Balance.',
  ];
  if (objective === 'operator_pilot')
    why.push(
      `The operator pilot runs ${OPERATOR_PILOT_DAYS} days on a tenant workspace opened for your key when the payment is fulfilled: discovery, evaluation, memos and follow-ups; then the workspace is read-only until pack_10000 is bought.`,
    );
  if (objective === 'enterprise')
    why.push(
      'pack_10000 opens the tenant workspace for your key when the payment is fulfilled: companies, memos, deals, follow-ups, events and webhooks, paid from the same credits.',
    );
  if (objective === 'growth' || objective === 'enterprise')
    why.push(
      `Autopay keeps agents running: with a saved payment method a top-up is charged when the balance falls under ${usdText(ctx.autopayThresholdCents)}.`,
    );

  const payJson = JSON.stringify({ objective, pack_id: chosen.pack_id });
  const endpoints = (status: 'available' | 'planned') =>
    Object.fromEntries(
      AGENT_ENDPOINTS.filter((e) => endpointStatus(e) === status).map((e) => [e.name, agentUrl(ctx, e.path)]),
    );
  const planned = endpoints('planned');
  return {
    objective: request.objective ?? objective,
    segment,
    recommended_objective: RECOMMENDED_OBJECTIVE,
    aggressive,
    message,
    why_buy_now: why,
    options,
    primary_buy_now: {
      endpoint: endpointUrl(ctx, 'pay'),
      method: 'POST',
      note: `Send ${payJson}; the answer carries key.api_key (shown once) and starter_checkout.url for ${chosen.pack_id}. Already have a key: open ${checkout(chosen.pack_id)}.`,
      pack_id: chosen.pack_id,
      amount_usd: centsToUsd(chosen.amount_cents),
      offer_code: null,
    },
    selected_pack_value: value,
    fastest_revenue_path: fastestRevenueBody(request.source),
    operator_pilot_payload_template: operatorPilotBody(request.source),
    twenty_four_seven_path: link(ctx, 'growth', request.source, request.binding),
    operator_pilot_path: {
      ...link(ctx, 'operator_pilot', request.source, request.binding),
      duration_days: OPERATOR_PILOT_DAYS,
    },
    enterprise_upgrade: enterpriseUpgrade(ctx, request.source, request.binding),
    endpoints: endpoints('available'),
    ...(Object.keys(planned).length ? { planned_endpoints: planned } : {}),
    payment_flow: [
      `POST ${endpointUrl(ctx, 'pay')} with ${payJson}: the answer carries key.id, key.api_key (store it, it is shown once) and starter_checkout.url.`,
      `Open starter_checkout.url and pay ${usdText(chosen.amount_cents)} on the hosted checkout.`,
      `The payment grants ${usdText(chosen.credits_cents)} of credits: GET ${endpointUrl(ctx, 'status')} with x-api-key shows balance_usd.`,
      `Call paid reads with x-api-key, e.g. GET ${agentUrl(ctx, '/discovery/top?limit=10')}; each success is charged its meter price.`,
      `On 402 insufficient_credits follow next_actions, or save a payment method (POST ${endpointUrl(ctx, 'setup_intent')}, then ${endpointUrl(ctx, 'attach_payment_method')}) and charge ${endpointUrl(ctx, 'topup_charge')} with save_for_autopay true.`,
    ],
  };
}

// ---------------------------------------------------------------- schemas

const pathLink = z.strictObject({ objective, pack_id: packId, checkout_redirect_url: url });

export const guidanceOptionSchema = z
  .strictObject({
    pack_id: packId,
    amount_usd: usd,
    credits_usd: usd,
    effective_credits_usd: usd,
    checkout_url: url.nullable(),
    checkout_redirect_url: url,
    offer_code: z.string().nullable(),
    preferred_for_objective: z.boolean(),
  })
  .meta({ id: 'AgentPurchaseOption' });

export const packValueSchema = z
  .strictObject({
    pack_id: packId,
    amount_usd: usd,
    credits_usd: usd,
    bonus_usd: usd,
    calls_covered: z.record(meter, z.int().min(0)),
    workflows_covered: z.record(z.string(), z.int().min(0)),
  })
  .meta({ id: 'AgentPackValue' });

export const guidanceSchema = envelopeSchema(
  z.strictObject({
    objective: z.string(),
    segment: z.enum(SEGMENTS),
    recommended_objective: z.literal('starter_proof'),
    aggressive: z.boolean(),
    message: z.string().min(1),
    why_buy_now: strings.min(1),
    options: z.array(guidanceOptionSchema),
    primary_buy_now: z.strictObject({
      endpoint: url,
      method: z.literal('POST'),
      note: z.string(),
      pack_id: packId,
      amount_usd: usd,
      offer_code: z.string().nullable(),
    }),
    selected_pack_value: packValueSchema,
    fastest_revenue_path: payBodyTemplate,
    operator_pilot_payload_template: payBodyTemplate,
    twenty_four_seven_path: pathLink,
    operator_pilot_path: pathLink.extend({ duration_days: z.int() }),
    enterprise_upgrade: enterpriseUpgradeSchema,
    /** The operations served today, by name. */
    endpoints: z.record(z.string(), urlTemplate),
    /** Operations of the spec not served yet, by name (absent: none). */
    planned_endpoints: z.record(z.string(), urlTemplate).optional(),
    payment_flow: strings.min(1),
  }),
  'AgentPurchaseGuidance',
);

// ---------------------------------------------------------------- request schemas

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

const keyId = z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a key id (key_…)');

const source = z.string().regex(/^[A-Za-z0-9._~-]{1,64}$/, 'expected 1 to 64 characters of A-Z a-z 0-9 . _ ~ -');

export const quoteQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  segment: z.enum(SEGMENTS).optional(),
  pack_id: packId.optional(),
  source: source.optional(),
  key_id: keyId.optional(),
});

export const recommendTierQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  segment: z.enum(SEGMENTS).optional(),
  aggressive: bool.optional(),
  source: source.optional(),
  key_id: keyId.optional(),
});
