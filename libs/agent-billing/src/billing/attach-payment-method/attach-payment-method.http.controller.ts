import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { AUTH } from '../../http/billing.http.js';
import { AttachPaymentMethodCommand } from './attach-payment-method.command.js';
import { type AttachBody, attachBody } from './attach-payment-method.schema.js';
import { attachedPaymentMethodSchema } from '../billing.response-schemas.js';

@Controller('api/v1')
export class AttachPaymentMethodController {
  constructor(private readonly commands: CommandBus) {}

  @Post('billing/payment-methods/attach')
  @HttpCode(200)
  @AgentAuth()
  @Operation({
    summary: 'Attach a confirmed payment method to the account',
    tags: ['agent billing'],
    description:
      'After the setup intent’s client secret was confirmed with the payment processor, saves that payment method on the account so top-ups can be charged off-session (POST /billing/topups/charge). Needs a key.',
    operationId: 'billingAttachPaymentMethod',
    body: attachBody,
    responses: {
      200: { description: 'The saved method (brand, last4).', schema: attachedPaymentMethodSchema },
      400: { description: 'PAYMENT_METHOD_INVALID or SETUP_INTENT_NOT_CONFIRMED.' },
    },
    security: AUTH,
  })
  attach(@Body() body: AttachBody, @CurrentAgent() agent: AgentPrincipal) {
    return this.commands.execute(new AttachPaymentMethodCommand(agent, body));
  }
}
