/**
 * Why and how to buy more: GET /api/v1/agents/value-proof, /agents/offers, /agents/growth and
 * /agents/conversion. Amounts at the deployment's prices; the autopay threshold as configured.
 */
import { z } from 'zod';
import {
  agentUrl,
  type CatalogContext,
  CREDIT_PACKS,
  endpointUrl,
  envelopeSchema,
  findPack,
  OBJECTIVE_PACK,
  OPERATOR_PILOT_DAYS,
  PACK_IDS,
  PACK_OBJECTIVE,
  packCheckoutUrl,
  REVENUE_TIER_KEYS,
  STARTER_PACK_ID,
} from '#agent-contract';
import {
  callToAction,
  fastestRevenueBody,
  operatorPilotBody,
  revenueTierEntries,
  revenueTierSchema,
} from './catalog.document.js';
import { packId, payBodyTemplate, strings, url, usd } from './catalog.schemas.js';
import { packValue, packValueSchema, stepUpPack, type PackValue } from './guidance.document.js';
import { usdText, workflow, workflowEntries } from './information.parts.js';
import { centsToUsd } from '#kernel';
import { enterprisePath, pilotLifecycle } from './enterprise-path.js';
import { fillText, fillTexts, TEXTS } from './document-texts.js';

// ---------------------------------------------------------------- value-proof

export function buildValueProof(ctx: CatalogContext) {
  const starter = findPack(STARTER_PACK_ID)!;
  const discovery = ctx.prices['read.discovery_top'];
  const evaluate = ctx.prices['read.company_profile'] + ctx.prices['read.company_score'];
  const proofCost = discovery + 3 * evaluate;
  return {
    summary: `${usdText(starter.amount_cents)} buys ${usdText(starter.credits_cents)} of credits: a discovery list plus three company evaluations cost ${usdText(proofCost)} at current prices.`,
    proof_run: {
      pack_id: starter.pack_id,
      steps: [
        {
          action: TEXTS.value_proof.discovery_action,
          method: 'GET',
          url: agentUrl(ctx, '/discovery/top?limit=10'),
          meter: 'read.discovery_top',
          price_usd: centsToUsd(discovery),
        },
        {
          action: TEXTS.value_proof.evaluate_action,
          method: 'GET',
          url: agentUrl(ctx, '/companies/{id}') + ' and ' + agentUrl(ctx, '/companies/{id}/score'),
          meter: 'read.company_profile + read.company_score',
          price_usd: centsToUsd(3 * evaluate),
        },
      ],
      cost_usd: centsToUsd(proofCost),
      credits_left_usd: centsToUsd(starter.credits_cents - proofCost),
    },
    packs: CREDIT_PACKS.map((p): PackValue => packValue(ctx, p)),
    workflows: workflowEntries(ctx).map(({ steps: _steps, ...w }) => w),
    guarantees: [...TEXTS.value_proof.guarantees],
    verify: TEXTS.value_proof.verify.map(({ what, how }) => ({ what, how: fillText(ctx, how) })),
  };
}

export const valueProofSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    proof_run: z.strictObject({
      pack_id: packId,
      steps: z
        .array(
          z.strictObject({
            action: z.string(),
            method: z.string(),
            url: z.string(),
            meter: z.string(),
            price_usd: usd,
          }),
        )
        .min(1),
      cost_usd: usd,
      credits_left_usd: z.number(),
    }),
    packs: z.array(packValueSchema).length(PACK_IDS.length),
    workflows: z.array(workflow.omit({ steps: true })).min(1),
    guarantees: strings.min(1),
    verify: z.array(z.strictObject({ what: z.string(), how: z.string() })).min(1),
  }),
  'AgentValueProof',
);

// ---------------------------------------------------------------- offers

export function buildOffers(ctx: CatalogContext) {
  return {
    offers: [] as never[],
    offer_codes: TEXTS.offers.offer_codes,
    volume_bonuses: CREDIT_PACKS.map((p) => ({
      pack_id: p.pack_id,
      name: p.name,
      amount_usd: centsToUsd(p.amount_cents),
      credits_usd: centsToUsd(p.credits_cents),
      bonus_usd: centsToUsd(p.credits_cents - p.amount_cents),
      bonus_percent: Math.round(((p.credits_cents - p.amount_cents) / p.amount_cents) * 1000) / 10,
      checkout_redirect_url: packCheckoutUrl(ctx, {
        objective: PACK_OBJECTIVE[p.pack_id],
        pack_id: p.pack_id,
        source: 'offers',
      }),
    })),
    note: TEXTS.offers.note,
  };
}

export const offersSchema = envelopeSchema(
  z.strictObject({
    offers: z.array(z.never()),
    offer_codes: z.string(),
    volume_bonuses: z
      .array(
        z.strictObject({
          pack_id: packId,
          name: z.string(),
          amount_usd: usd,
          credits_usd: usd,
          bonus_usd: usd,
          bonus_percent: z.number().min(0),
          checkout_redirect_url: url,
        }),
      )
      .length(PACK_IDS.length),
    note: z.string(),
  }),
  'AgentOffers',
);

// ---------------------------------------------------------------- growth

export function buildGrowth(ctx: CatalogContext) {
  return {
    summary: TEXTS.growth.summary,
    ladder: revenueTierEntries(ctx, 'growth'),
    upgrade_paths: CREDIT_PACKS.filter((p) => stepUpPack(p.pack_id) !== p.pack_id).map((p) => {
      const next = findPack(stepUpPack(p.pack_id))!;
      return {
        from_pack_id: p.pack_id,
        to_pack_id: next.pack_id,
        extra_cost_usd: centsToUsd(next.amount_cents - p.amount_cents),
        extra_credits_usd: centsToUsd(next.credits_cents - p.credits_cents),
        bonus_usd: centsToUsd(next.credits_cents - next.amount_cents),
        checkout_redirect_url: packCheckoutUrl(ctx, {
          objective: PACK_OBJECTIVE[next.pack_id],
          pack_id: next.pack_id,
          source: 'growth',
        }),
      };
    }),
    autopay: {
      threshold_usd: centsToUsd(ctx.autopayThresholdCents),
      rule: `After a charge leaves the balance under ${usdText(ctx.autopayThresholdCents)} and a saved payment method exists, one top-up of the chosen pack is charged; never two at once.`,
      enable: fillTexts(ctx, TEXTS.growth.autopay_enable),
    },
    operator_pilot: {
      duration_days: OPERATOR_PILOT_DAYS,
      pack_id: OBJECTIVE_PACK.operator_pilot,
      request: `POST ${endpointUrl(ctx, 'leads')}`,
      lifecycle: pilotLifecycle(),
      enterprise_path: enterprisePath(ctx),
      checkout_redirect_url: packCheckoutUrl(ctx, {
        objective: 'operator_pilot',
        pack_id: OBJECTIVE_PACK.operator_pilot,
        source: 'growth',
      }),
    },
  };
}

export const growthSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    ladder: z.array(revenueTierSchema).length(REVENUE_TIER_KEYS.length),
    upgrade_paths: z
      .array(
        z.strictObject({
          from_pack_id: packId,
          to_pack_id: packId,
          extra_cost_usd: usd,
          extra_credits_usd: usd,
          bonus_usd: usd,
          checkout_redirect_url: url,
        }),
      )
      .min(1),
    autopay: z.strictObject({ threshold_usd: usd, rule: z.string(), enable: strings.min(1) }),
    operator_pilot: z.strictObject({
      duration_days: z.int(),
      lifecycle: strings.min(1),
      enterprise_path: strings.min(1),
      pack_id: packId,
      request: z.string(),
      checkout_redirect_url: url,
    }),
  }),
  'AgentGrowth',
);

// ---------------------------------------------------------------- conversion

export function buildConversion(ctx: CatalogContext) {
  const starter = findPack(STARTER_PACK_ID)!;
  return {
    call_to_action: callToAction(ctx),
    funnel: [
      {
        stage: 'discover',
        action: 'Read the catalogue',
        method: 'GET',
        url: endpointUrl(ctx, 'catalog'),
        result: 'packs, services and prices',
      },
      {
        stage: 'check',
        action: 'Dry-run the purchase',
        method: 'GET',
        url: `${endpointUrl(ctx, 'pay_check')}?objective=starter`,
        result: 'what POST /agents/pay would do; nothing is created',
      },
      {
        stage: 'key',
        action: 'Get a key and a checkout',
        method: 'POST',
        url: endpointUrl(ctx, 'pay'),
        result: 'key.api_key and starter_checkout.url',
      },
      {
        stage: 'pay',
        action: `Pay ${usdText(starter.amount_cents)}`,
        method: 'GET',
        url: 'starter_checkout.url',
        result: `${usdText(starter.credits_cents)} of credits`,
      },
      {
        stage: 'first_paid_call',
        action: 'Read the discovery list',
        method: 'GET',
        url: agentUrl(ctx, '/discovery/top?limit=10'),
        result: `data, charged ${usdText(ctx.prices['read.discovery_top'])}`,
      },
      {
        stage: 'retain',
        action: 'Enable autopay',
        method: 'POST',
        url: endpointUrl(ctx, 'topup_charge'),
        result: 'top-ups before the balance runs out',
      },
    ],
    shortest_path: {
      endpoint: endpointUrl(ctx, 'pay'),
      method: 'POST',
      request_body_template: fastestRevenueBody('conversion'),
    },
    operator_pilot_path: {
      endpoint: endpointUrl(ctx, 'pay'),
      method: 'POST',
      request_body_template: operatorPilotBody('conversion'),
    },
    objections: TEXTS.conversion.objections.map(({ question, answer }) => ({
      question,
      answer: fillText(ctx, answer),
    })),
  };
}

export const conversionSchema = envelopeSchema(
  z.strictObject({
    call_to_action: z.string(),
    funnel: z
      .array(
        z.strictObject({
          stage: z.string(),
          action: z.string(),
          method: z.string(),
          url: z.string(),
          result: z.string(),
        }),
      )
      .min(1),
    shortest_path: z.strictObject({ endpoint: url, method: z.literal('POST'), request_body_template: payBodyTemplate }),
    operator_pilot_path: z.strictObject({
      endpoint: url,
      method: z.literal('POST'),
      request_body_template: payBodyTemplate,
    }),
    objections: z.array(z.strictObject({ question: z.string(), answer: z.string() })).min(1),
  }),
  'AgentConversion',
);
