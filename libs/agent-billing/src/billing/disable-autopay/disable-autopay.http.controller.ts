import { Controller, Delete } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { emptyBody, Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { AUTH } from '../../http/billing.http.js';
import { DisableAutopayCommand } from './disable-autopay.command.js';
import { autopayResponseSchema } from '../billing.response-schemas.js';

@Controller('api/v1')
export class DisableAutopayController {
  constructor(private readonly commands: CommandBus) {}

  @Delete('billing/autopay')
  @AgentAuth()
  @Operation({
    summary: 'Turn autopay off',
    description: 'Turn it on again with POST /billing/topups/charge and save_for_autopay=true.',
    tags: ['agent billing'],
    operationId: 'billingDisableAutopay',
    body: emptyBody,
    responses: { 200: { description: 'Autopay state and balance.', schema: autopayResponseSchema } },
    security: AUTH,
  })
  disableAutopay(@CurrentAgent() agent: AgentPrincipal) {
    return this.commands.execute(new DisableAutopayCommand(agent));
  }
}
