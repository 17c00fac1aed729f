import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { runIdParams, runViewSchema, type RunView } from '../../run.view.js';
import { FailRunCommand } from './fail-run.command.js';
import { failRunBody } from './fail-run.schema.js';

@Controller('v1/runs')
@PlatformAuth()
export class FailRunController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/fail')
  @HttpCode(200)
  @RequireScope('agents:run')
  @Operation({
    summary: 'Report a run as failed',
    description:
      'Scope `agents:run`, from the credential that claimed the run. running → failed; emits `agent.failed`. Not running → 409 `INVALID_RUN_TRANSITION`; claimed by another credential → 409 `RUN_CLAIMED_BY_ANOTHER_RUNNER`.',
    tags: ['runs'],
    operationId: 'failRun',
    params: runIdParams,
    body: failRunBody,
    responses: {
      200: { description: 'The run, status `failed`.', schema: runViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`RUN_NOT_FOUND`.' },
      409: { description: '`INVALID_RUN_TRANSITION` or `RUN_CLAIMED_BY_ANOTHER_RUNNER`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  fail(
    @Param() params: z.output<typeof runIdParams>,
    @Body() body: z.output<typeof failRunBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RunView> {
    return this.commands.execute(
      new FailRunCommand({
        accountId: principal.accountId,
        runId: params.id,
        by: principal.id,
        error: { code: body.error.code ?? null, message: body.error.message },
      }),
    );
  }
}
