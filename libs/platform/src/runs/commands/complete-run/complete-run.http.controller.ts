import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { runIdParams, runViewSchema, type RunView } from '../../run.view.js';
import { CompleteRunCommand } from './complete-run.command.js';
import { completeRunBody } from './complete-run.schema.js';

@Controller('v1/runs')
@PlatformAuth()
export class CompleteRunController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/complete')
  @HttpCode(200)
  @RequireScope('agents:run')
  @Operation({
    summary: 'Report a run as completed',
    description:
      'Scope `agents:run`, from the credential that claimed the run. running → success with the findings; emits `agent.completed` (duration from the claim) and, when there are findings, `agent.issues_found`. Not running → 409 `INVALID_RUN_TRANSITION`; claimed by another credential → 409 `RUN_CLAIMED_BY_ANOTHER_RUNNER`.',
    tags: ['runs'],
    operationId: 'completeRun',
    params: runIdParams,
    body: completeRunBody,
    responses: {
      200: { description: 'The run, status `success`.', schema: runViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`RUN_NOT_FOUND`.' },
      409: { description: '`INVALID_RUN_TRANSITION` or `RUN_CLAIMED_BY_ANOTHER_RUNNER`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  complete(
    @Param() params: z.output<typeof runIdParams>,
    @Body() body: z.output<typeof completeRunBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RunView> {
    return this.commands.execute(
      new CompleteRunCommand({
        accountId: principal.accountId,
        runId: params.id,
        by: principal.id,
        findings: body.findings,
        summary: body.summary ?? null,
      }),
    );
  }
}
