import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import {
  IDEMPOTENCY_CONFLICTS,
  Idempotent,
  IDEMPOTENT_REPLAY_HEADERS,
} from '../../idempotency/idempotent.interceptor.js';
import { CreateAgentKeyCommand } from './create-key.command.js';

const createKeyBody = z.strictObject({ name: z.string().trim().min(1).max(100).optional() }).optional();

const createdKeySchema = z
  .object({
    key: z.object({
      id: z.string().describe('`key_…`'),
      api_key: z.string().describe('The key value, shown once: store it.'),
      prefix: z.string(),
      name: z.string(),
      created_at: z.string(),
    }),
    account_id: z.string(),
    next: z.string().describe('What to do next (move clients over, then revoke the old key).'),
  })
  .meta({ id: 'CreatedAgentKey' });

/**
 * Key rotation for agent accounts (spec: /agents/keys): create a new key for the same account,
 * move clients to it, then revoke the old one by id.
 */
@Controller('api/v1/agents/keys')
@AgentAuth()
export class CreateAgentKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @Idempotent('POST /api/v1/agents/keys')
  @Operation({
    summary: 'Issue another key for this account (rotation)',
    description: 'The new key value is returned once. Honours Idempotency-Key for 24 h.',
    tags: ['agent keys'],
    operationId: 'agentCreateKey',
    body: createKeyBody,
    responses: {
      201: { description: 'The new key.', schema: createdKeySchema, headers: IDEMPOTENT_REPLAY_HEADERS },
      401: { description: 'Missing or invalid agent key.' },
      ...IDEMPOTENCY_CONFLICTS,
    },
    security: ['apiKey', 'bearer'],
  })
  create(@Body() body: z.output<typeof createKeyBody>, @CurrentAgent() agent: AgentPrincipal) {
    return this.commands.execute(new CreateAgentKeyCommand(agent, body?.name));
  }
}
