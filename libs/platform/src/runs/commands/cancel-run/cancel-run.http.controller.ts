import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { runIdParams, runViewSchema, type RunView } from '../../run.view.js';
import { CancelRunCommand } from './cancel-run.command.js';
import { cancelRunBody } from './cancel-run.schema.js';

@Controller('v1/runs')
@PlatformAuth()
export class CancelRunController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScope('agents:run')
  @Operation({
    summary: 'Cancel a run',
    description:
      'Scope `agents:run`. queued or running → cancelled (any credential of the account; a runner whose run was cancelled gets 409 when it reports). Finished runs → 409 `INVALID_RUN_TRANSITION`. Emits no platform event (the spec defines none for cancellation).',
    tags: ['runs'],
    operationId: 'cancelRun',
    params: runIdParams,
    body: cancelRunBody,
    responses: {
      200: { description: 'The run, status `cancelled`.', schema: runViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`RUN_NOT_FOUND`.' },
      409: { description: '`INVALID_RUN_TRANSITION`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  cancel(
    @Param() params: z.output<typeof runIdParams>,
    @Body() body: z.output<typeof cancelRunBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RunView> {
    return this.commands.execute(
      new CancelRunCommand({
        accountId: principal.accountId,
        runId: params.id,
        by: principal.id,
        reason: body?.reason ?? null,
      }),
    );
  }
}
