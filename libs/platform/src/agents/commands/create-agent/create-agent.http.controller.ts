import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { agentViewSchema, type AgentView } from '../../agent.view.js';
import { CreateAgentCommand } from './create-agent.command.js';
import { createAgentBody } from './create-agent.schema.js';

@Controller('v1/agents')
@PlatformAuth()
export class CreateAgentController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @RequireScope('agents:configure')
  @Operation({
    summary: 'Create an agent',
    description:
      'Scope `agents:configure`. An agent is a name, a template (`GET /v1/agent-templates`) and a config object.',
    tags: ['agents'],
    operationId: 'createAgent',
    body: createAgentBody,
    responses: {
      201: { description: 'The new agent.', schema: agentViewSchema, headers: RATE_LIMIT_HEADERS },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  create(@Body() body: z.output<typeof createAgentBody>, @CurrentPrincipal() principal: Principal): Promise<AgentView> {
    return this.commands.execute(
      new CreateAgentCommand({
        accountId: principal.accountId,
        name: body.name,
        template: body.template,
        config: body.config,
        by: principal.id,
      }),
    );
  }
}
