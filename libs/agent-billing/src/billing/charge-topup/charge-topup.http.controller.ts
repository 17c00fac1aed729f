import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Operation, publicBaseUrl } from '#http';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import {
  IDEMPOTENCY_CONFLICTS,
  Idempotent,
  IDEMPOTENT_REPLAY_HEADERS,
} from '../../idempotency/idempotent.interceptor.js';
import { AUTH, type BillingRequest } from '../../http/billing.http.js';
import { ChargeTopupCommand } from './charge-topup.command.js';
import { type TopupChargeBody, topupChargeBody } from './charge-topup.schema.js';
import { topupChargeSchema } from '../billing.response-schemas.js';

@Controller('api/v1')
export class ChargeTopupController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('billing/topups/charge')
  @HttpCode(200)
  @AgentAuth()
  @Idempotent('POST /api/v1/billing/topups/charge')
  @Operation({
    summary: 'Charge a saved payment method for a pack (off-session)',
    description:
      'Credits the pack at once when the payment succeeds. save_for_autopay=true keeps method and pack for automatic recharge: after a charge leaves the balance under the threshold (default 10 USD) one top-up of that pack is charged (D19). A decline answers 402 PAYMENT_DECLINED with a hosted checkout as the next action. Honours Idempotency-Key (recommended: it is also the payment’s idempotency key at the provider).',
    tags: ['agent billing'],
    operationId: 'billingTopupCharge',
    body: topupChargeBody,
    responses: {
      200: {
        description: 'The charge: credited at once when it succeeded.',
        schema: topupChargeSchema,
        headers: IDEMPOTENT_REPLAY_HEADERS,
      },
      400: { description: 'PAYMENT_METHOD_NOT_ATTACHED' },
      402: { description: 'PAYMENT_DECLINED with next_actions.' },
      ...IDEMPOTENCY_CONFLICTS,
    },
    security: AUTH,
  })
  topupCharge(@Body() body: TopupChargeBody, @CurrentAgent() agent: AgentPrincipal, @Req() request: BillingRequest) {
    const header = request.headers['idempotency-key'];
    const idempotencyKey = Array.isArray(header) ? header[0] : header;
    return this.commands.execute(
      new ChargeTopupCommand(agent, body, idempotencyKey, publicBaseUrl(request, this.config)),
    );
  }
}
