import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { agentIdParams } from '../../../agents/agent.view.js';
import { runViewSchema, type RunView } from '../../run.view.js';
import { StartRunCommand } from './start-run.command.js';
import { startRunBody } from './start-run.schema.js';

@Controller('v1/agents')
@PlatformAuth()
export class StartRunController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/runs')
  @HttpCode(201)
  @RequireScope('agents:run')
  @Operation({
    summary: 'Start a run',
    description:
      'Scope `agents:run`. Queues a run of the agent against a connected repository and, optionally, a pull request. A runner then claims it (`POST /v1/runs/claim`), which emits `agent.started`.',
    tags: ['runs'],
    operationId: 'startRun',
    params: agentIdParams,
    body: startRunBody,
    responses: {
      201: { description: 'The queued run.', schema: runViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`AGENT_NOT_FOUND` or `REPOSITORY_NOT_FOUND`.' },
      409: { description: '`REPOSITORY_DISCONNECTED`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  start(
    @Param() params: z.output<typeof agentIdParams>,
    @Body() body: z.output<typeof startRunBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RunView> {
    return this.commands.execute(
      new StartRunCommand({
        accountId: principal.accountId,
        agentId: params.id,
        repositoryId: body.repository_id,
        pullRequest: body.pull_request ?? null,
        ref: body.ref ?? null,
        by: principal.id,
      }),
    );
  }
}
