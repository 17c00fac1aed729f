import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { RevokeAgentKeyCommand } from './revoke-key.command.js';

const keyParams = z.object({ id: z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a key id (key_…)') });

@Controller('api/v1/agents/keys')
@AgentAuth()
export class RevokeAgentKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':id')
  @HttpCode(204)
  @Operation({
    summary: 'Revoke a key of this account',
    description:
      'The key fails from its next request. A key cannot revoke itself while it is the account’s only active key (409 LAST_ACTIVE_KEY): create a new one first.',
    tags: ['agent keys'],
    operationId: 'agentRevokeKey',
    body: emptyBody,
    params: keyParams,
    responses: {
      204: { description: 'Revoked.' },
      404: { description: 'KEY_NOT_FOUND' },
      409: { description: 'LAST_ACTIVE_KEY' },
    },
    security: ['apiKey', 'bearer'],
  })
  async revoke(@Param() params: z.output<typeof keyParams>, @CurrentAgent() agent: AgentPrincipal): Promise<void> {
    await this.commands.execute(new RevokeAgentKeyCommand(params.id, agent));
  }
}
