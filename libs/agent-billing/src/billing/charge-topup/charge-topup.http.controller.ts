import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Operation, publicBaseUrl } from '#http';
import { APP_CONFIG, type AppConfig, ID_GENERATOR, type IdGenerator } from '#kernel';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { Idempotency } from '../../idempotency/idempotency.service.js';
import { AUTH, type BillingRequest } from '../../http/billing.http.js';
import { ChargeTopupCommand } from './charge-topup.command.js';
import { type TopupChargeBody, topupChargeBody } from './charge-topup.schema.js';
import { topupChargeSchema } from '../billing.response-schemas.js';

interface Reply {
  header(name: string, value: string): unknown;
}

@Controller('api/v1')
export class ChargeTopupController {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotency: Idempotency,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
      200: { description: 'The charge: credited at once when it succeeded.', schema: topupChargeSchema },
      400: { description: 'PAYMENT_METHOD_NOT_ATTACHED' },
      402: { description: 'PAYMENT_DECLINED with next_actions.' },
    },
    security: AUTH,
  })
  topupCharge(
    @Body() body: TopupChargeBody,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: BillingRequest,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const header = request.headers['idempotency-key'];
    const clientKey = Array.isArray(header) ? header[0] : header;
    // The provider-side idempotency key: the client's (per account) when given, else a fresh one.
    const providerKey = clientKey ? `topup-${agent.accountId}-${clientKey}` : `topup-${this.ids.next('att')}`;
    const baseUrl = publicBaseUrl(request, this.config);
    return this.idempotency.run(request, reply, `POST /api/v1/billing/topups/charge ${agent.accountId}`, body, () =>
      this.commands.execute(new ChargeTopupCommand(agent, body, providerKey, baseUrl)),
    );
  }
}
