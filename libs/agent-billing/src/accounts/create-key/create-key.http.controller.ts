import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { Idempotency } from '../../idempotency/idempotency.service.js';
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

interface HttpRequest {
  headers: Record<string, string | string[] | undefined>;
}
interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * Key rotation for agent accounts (spec: /agents/keys): create a new key for the same account,
 * move clients to it, then revoke the old one by id.
 */
@Controller('api/v1/agents/keys')
@AgentAuth()
export class CreateAgentKeyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotency: Idempotency,
  ) {}

  @Post()
  @HttpCode(201)
  @Operation({
    summary: 'Issue another key for this account (rotation)',
    description: 'The new key value is returned once. Honours Idempotency-Key for 24 h.',
    tags: ['agent keys'],
    operationId: 'agentCreateKey',
    body: createKeyBody,
    responses: {
      201: { description: 'The new key.', schema: createdKeySchema },
      401: { description: 'Missing or invalid agent key.' },
    },
    security: ['apiKey', 'bearer'],
  })
  create(
    @Body() body: z.output<typeof createKeyBody>,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    return this.idempotency.run(request, reply, `POST /api/v1/agents/keys ${agent.accountId}`, body ?? {}, () =>
      this.commands.execute(new CreateAgentKeyCommand(agent, body?.name)),
    );
  }
}
