import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { runIdParams, runViewSchema, type RunView } from '../../run.view.js';
import { ClaimNextRunCommand, ClaimRunCommand } from './claim-run.command.js';
import { claimNextRunBody } from './claim-run.schema.js';

@Controller('v1/runs')
@PlatformAuth()
export class ClaimRunController {
  constructor(private readonly commands: CommandBus) {}

  @Post('claim')
  @HttpCode(200)
  @RequireScope('agents:run')
  @Operation({
    summary: 'Claim the next queued run',
    description:
      'Scope `agents:run`. For runners: takes the oldest queued run of the account (narrowed by `agent_id`, `repository_id`, `template`), moves it to `running` and emits `agent.started`. Each run is claimed once, however many runners ask at the same time. 204 when nothing is queued. Only the claiming credential may then complete or fail it, within the lease (`SVC_RUN_TIMEOUT_MINUTES`, default 60): a run still running after it fails with `error.code` `timeout`.',
    tags: ['runs'],
    operationId: 'claimNextRun',
    body: claimNextRunBody,
    responses: {
      200: {
        description: 'The claimed run (status `running`), with the config to execute.',
        schema: runViewSchema,
        headers: RATE_LIMIT_HEADERS,
      },
      204: { description: 'No queued run matches.', headers: RATE_LIMIT_HEADERS },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async claimNext(
    @Body() body: z.output<typeof claimNextRunBody>,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunView | undefined> {
    const run = await this.commands.execute(
      new ClaimNextRunCommand({
        accountId: principal.accountId,
        by: principal.id,
        agentId: body?.agent_id,
        repositoryId: body?.repository_id,
        template: body?.template,
      }),
    );
    if (run) return run;
    void reply.status(204);
    return undefined;
  }

  @Post(':id/claim')
  @HttpCode(200)
  @RequireScope('agents:run')
  @Operation({
    summary: 'Claim a queued run',
    description:
      'Scope `agents:run`. queued → running; emits `agent.started`. A run that is not queued (claimed by someone else, finished, cancelled) → 409 `INVALID_RUN_TRANSITION` with `run_status`. The claimer has the lease (`SVC_RUN_TIMEOUT_MINUTES`, default 60) to report: after it, the run fails with `error.code` `timeout`.',
    tags: ['runs'],
    operationId: 'claimRun',
    body: emptyBody,
    params: runIdParams,
    responses: {
      200: { description: 'The claimed run.', schema: runViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`RUN_NOT_FOUND`.' },
      409: { description: '`INVALID_RUN_TRANSITION`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  claim(@Param() params: z.output<typeof runIdParams>, @CurrentPrincipal() principal: Principal): Promise<RunView> {
    return this.commands.execute(
      new ClaimRunCommand({ accountId: principal.accountId, runId: params.id, by: principal.id }),
    );
  }
}
