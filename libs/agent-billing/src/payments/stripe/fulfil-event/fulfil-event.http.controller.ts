import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { Operation } from '#http';
import { RAW_BODY_CONFIG, type RawBodyRequest } from '../../raw-body.js';
import { FulfilStripeEventCommand } from './fulfil-event.command.js';
import { HANDLED_STRIPE_EVENTS } from './fulfil-event.handler.js';

const stripeAckSchema = z
  .object({
    received: z.literal(true),
    id: z.string().describe('The Stripe event id.'),
    type: z.string(),
    handled: z.boolean().describe('False for an event type this service does not act on.'),
    credited: z.boolean(),
    account_id: z.string().optional(),
    error: z.string().optional().describe('Why a payment could not be credited (left to an operator).'),
  })
  .meta({ id: 'StripeWebhookAck' });

/** A Stripe event as Stripe sends it (checked by its signature over the raw bytes, not by a schema). */
const stripeEventSchema = z.looseObject({
  id: z.string(),
  object: z.literal('event'),
  type: z.string(),
  data: z.looseObject({ object: z.record(z.string(), z.unknown()) }),
});

type WebhookRequest = RawBodyRequest & { headers: Record<string, string | string[] | undefined> };

/** Stripe's webhook: the raw body (kept for this route only) and its signature go to the command. */
@Controller('api/v1/billing/webhooks')
export class StripeWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Post('stripe')
  @HttpCode(200)
  @RouteConfig(RAW_BODY_CONFIG)
  @Operation({
    summary: 'Stripe webhook (payment fulfilment)',
    description: `Called by Stripe, signed with STRIPE_WEBHOOK_SECRET (Stripe-Signature over the raw body). Handles ${HANDLED_STRIPE_EVENTS.join(', ')}; idempotent by session or payment intent id.`,
    tags: ['agent billing'],
    operationId: 'stripeWebhook',
    documentedBody: { required: true, content: { 'application/json': stripeEventSchema } },
    responses: {
      200: {
        description: 'Acknowledged (also when it cannot be credited: resending would not help).',
        schema: stripeAckSchema,
      },
      400: { description: 'SIGNATURE_INVALID (nothing is credited).' },
      503: { description: 'STRIPE_WEBHOOK_NOT_CONFIGURED' },
    },
  })
  receive(@Req() request: WebhookRequest) {
    const header = request.headers['stripe-signature'];
    return this.commands.execute(
      new FulfilStripeEventCommand(request.rawBody, Array.isArray(header) ? header[0] : header),
    );
  }
}
