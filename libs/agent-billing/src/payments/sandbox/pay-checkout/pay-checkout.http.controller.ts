import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { AnonymousLimit } from '#access';
import { emptyBody, Operation, prefersJson } from '#http';
import { JSON_OVER_PAGE } from '../../../http/billing.http.js';
import { PATHS, provisionedWorkspaceSchema } from '#agent-contract';
import { sessionParams } from '../sandbox.schema.js';
import { PaySandboxCheckoutCommand } from './pay-checkout.command.js';

const paidCheckoutSchema = z
  .object({
    paid: z.literal(true),
    session_id: z.string(),
    account_id: z.string(),
    pack_id: z.string(),
    credited: z.boolean().describe('False when this session was already credited (paying twice credits once).'),
    credits_usd: z.number(),
    balance_usd: z.number(),
    claim_url: z.string().optional().describe('An unbound checkout opened a new account: its key is shown once there.'),
    workspace: provisionedWorkspaceSchema
      .nullable()
      .describe(
        'The workspace the pack opened (pack_2499: the pilot, pack_10000: enterprise); null for a credits-only pack.',
      ),
  })
  .meta({ id: 'PaidSandboxCheckout' });

interface Reply {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  send(body?: unknown): unknown;
}

@Controller('api/v1/billing')
export class PaySandboxCheckoutController {
  constructor(private readonly commands: CommandBus) {}

  @Post('sandbox/checkout/:id/pay')
  @AnonymousLimit('write')
  @HttpCode(200)
  @Operation({
    summary: 'Pay a sandbox checkout (its Pay button)',
    description:
      'Completes the session and credits the pack through the same fulfilment as Stripe’s webhook; paying twice credits once. 303 to the success page, or 200 JSON for Accept: application/json.',
    tags: ['agent billing'],
    operationId: 'sandboxCheckoutPay',
    body: emptyBody,
    params: sessionParams,
    responses: {
      200: { description: 'With Accept: application/json: the payment.', schema: paidCheckoutSchema },
      303: {
        description: 'To the success page (the body says the same as the 200).',
        schema: paidCheckoutSchema,
        headers: { Location: { description: 'The checkout success page.' } },
      },
      404: { description: 'CHECKOUT_SESSION_NOT_FOUND.' },
      429: { description: 'RATE_LIMIT_EXCEEDED: too many writes from this address.' },
    },
  })
  async pay(
    @Param() params: z.output<typeof sessionParams>,
    @Req() request: { headers: Record<string, string | string[] | undefined> },
    @Res() reply: Reply,
  ): Promise<void> {
    const body = await this.commands.execute(new PaySandboxCheckoutCommand(params.id));
    if (prefersJson(request.headers.accept, JSON_OVER_PAGE)) {
      reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
      return;
    }
    const location = `${PATHS.checkoutSuccess}?session_id=${encodeURIComponent(body.session_id)}`;
    reply
      .code(303)
      .header('location', location)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));
  }
}
