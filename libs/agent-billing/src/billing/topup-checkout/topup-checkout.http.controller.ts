import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Operation, publicBaseUrl } from '#http';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { AUTH, type BillingRequest } from '../../http/billing.http.js';
import { CreateTopupCheckoutCommand } from './topup-checkout.command.js';
import { type TopupCheckoutBody, topupCheckoutBody } from './topup-checkout.schema.js';
import { topupCheckoutSchema } from '../billing.response-schemas.js';

@Controller('api/v1')
export class CreateTopupCheckoutController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('billing/topups/checkout')
  @HttpCode(201)
  @AgentAuth()
  @Operation({
    summary: 'Hosted checkout for a top-up (fallback when no card is saved)',
    tags: ['agent billing'],
    description:
      'Opens a hosted checkout for a pack that credits the calling key’s account: the fallback when no payment method is saved. Answers the checkout URL. Needs a key.',
    operationId: 'billingTopupCheckout',
    body: topupCheckoutBody,
    responses: { 201: { description: 'The hosted checkout to open.', schema: topupCheckoutSchema } },
    security: AUTH,
  })
  topupCheckout(
    @Body() body: TopupCheckoutBody,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: BillingRequest,
  ) {
    return this.commands.execute(new CreateTopupCheckoutCommand(agent, body, publicBaseUrl(request, this.config)));
  }
}
