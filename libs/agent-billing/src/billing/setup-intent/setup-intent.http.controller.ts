import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { emptyBody, Operation, publicBaseUrl } from '#http';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { AUTH, type BillingRequest } from '../../http/billing.http.js';
import { CreateSetupIntentCommand } from './setup-intent.command.js';
import { setupIntentResponseSchema } from '../billing.response-schemas.js';

@Controller('api/v1')
export class CreateSetupIntentController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('billing/setup-intent')
  @HttpCode(201)
  @AgentAuth()
  @Operation({
    summary: 'Start saving a payment method for off-session charges',
    description:
      'Returns the client_secret to confirm with the payment processor’s client SDK (sandbox: its confirm endpoint), then attach the method.',
    tags: ['agent billing'],
    operationId: 'billingSetupIntent',
    body: emptyBody,
    responses: {
      201: { description: 'The setup intent to confirm.', schema: setupIntentResponseSchema },
    },
    security: AUTH,
  })
  setupIntent(@CurrentAgent() agent: AgentPrincipal, @Req() request: BillingRequest) {
    return this.commands.execute(new CreateSetupIntentCommand(agent, publicBaseUrl(request, this.config)));
  }
}
