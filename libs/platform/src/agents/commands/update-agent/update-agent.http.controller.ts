import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { agentIdParams, agentViewSchema, type AgentView } from '../../agent.view.js';
import { UpdateAgentCommand } from './update-agent.command.js';
import { updateAgentBody } from './update-agent.schema.js';

@Controller('v1/agents')
@PlatformAuth()
export class UpdateAgentController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':id')
  @RequireScope('agents:configure')
  @Operation({
    summary: 'Update an agent',
    description:
      'Scope `agents:configure`. Changes the name and/or replaces the config; the template is fixed at creation. Runs already queued keep the config they were queued with.',
    tags: ['agents'],
    operationId: 'updateAgent',
    params: agentIdParams,
    body: updateAgentBody,
    responses: {
      200: { description: 'The agent after the change.', schema: agentViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`AGENT_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  update(
    @Param() params: z.output<typeof agentIdParams>,
    @Body() body: z.output<typeof updateAgentBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AgentView> {
    return this.commands.execute(
      new UpdateAgentCommand({
        accountId: principal.accountId,
        agentId: params.id,
        name: body.name,
        config: body.config,
        by: principal.id,
      }),
    );
  }
}
