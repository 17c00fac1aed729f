import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { AnonymousLimit } from '#access';
import { Operation } from '#http';
import { prefersJson } from '../../../billing/billing.http.js';
import { PATHS } from '../../../billing/links.js';
import { sessionParams } from '../sandbox.schema.js';
import { PaySandboxCheckoutCommand } from './pay-checkout.command.js';

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
    params: sessionParams,
    responses: {
      200: { description: 'JSON: {paid, credited, balance_usd, …}.' },
      303: { description: 'To the success page.' },
    },
  })
  async pay(
    @Param() params: z.output<typeof sessionParams>,
    @Req() request: { headers: Record<string, string | string[] | undefined> },
    @Res() reply: Reply,
  ): Promise<void> {
    const body = await this.commands.execute(new PaySandboxCheckoutCommand(params.id));
    if (prefersJson(request.headers.accept)) {
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
