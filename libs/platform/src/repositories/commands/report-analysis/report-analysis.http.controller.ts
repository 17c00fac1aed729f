import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { analysisViewSchema, type AnalysisView, repositoryIdParams } from '../../repository.view.js';
import { ReportAnalysisCommand } from './report-analysis.command.js';
import { reportAnalysisBody } from './report-analysis.schema.js';

@Controller('v1/repositories')
@PlatformAuth()
export class ReportAnalysisController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/analyses')
  @HttpCode(201)
  @RequireScope('write')
  @Operation({
    summary: 'Report a repository analysis',
    description:
      'Scope `write`. Records an analysis of a connected repository and emits `repository.analyzed`; the repository shows it as `last_analysis`.',
    tags: ['repositories'],
    operationId: 'reportRepositoryAnalysis',
    params: repositoryIdParams,
    body: reportAnalysisBody,
    responses: {
      201: { description: 'The recorded analysis.', schema: analysisViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`REPOSITORY_NOT_FOUND`.' },
      409: { description: '`REPOSITORY_DISCONNECTED`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  report(
    @Param() params: z.output<typeof repositoryIdParams>,
    @Body() body: z.output<typeof reportAnalysisBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AnalysisView> {
    return this.commands.execute(
      new ReportAnalysisCommand({
        accountId: principal.accountId,
        repositoryId: params.id,
        summary: body.summary,
        commitSha: body.commit_sha?.toLowerCase() ?? null,
        languages: body.languages,
        metrics: body.metrics,
        by: principal.id,
      }),
    );
  }
}
