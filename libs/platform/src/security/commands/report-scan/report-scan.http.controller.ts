import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { repositoryIdParams } from '../../../repositories/repository.view.js';
import { securityScanSchema, type SecurityScanView } from '../../security.view.js';
import { ReportScanCommand } from './report-scan.command.js';
import { reportScanBody } from './report-scan.schema.js';

@Controller('v1/repositories')
@PlatformAuth()
export class ReportScanController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/security-scans')
  @HttpCode(201)
  @RequireScope('write')
  @Operation({
    summary: 'Report a security scan',
    description:
      "Scope `write`. The scanner sends the repository's FULL current list of vulnerabilities. Each one not already open emits `security.alert`; each open one the list no longer has emits `security.resolved`; then `security.scan_completed` with the counts. Sending the same list again opens and resolves nothing. An alert is one (advisory id, package) pair; listing one twice → 400.",
    tags: ['security'],
    operationId: 'reportSecurityScan',
    params: repositoryIdParams,
    body: reportScanBody,
    responses: {
      201: {
        description: 'The recorded scan with its counts.',
        schema: securityScanSchema,
        headers: RATE_LIMIT_HEADERS,
      },
      404: { description: '`REPOSITORY_NOT_FOUND`.' },
      409: { description: '`REPOSITORY_DISCONNECTED`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  report(
    @Param() params: z.output<typeof repositoryIdParams>,
    @Body() body: z.output<typeof reportScanBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SecurityScanView> {
    return this.commands.execute(
      new ReportScanCommand({
        accountId: principal.accountId,
        repositoryId: params.id,
        scanner: body.scanner ?? null,
        vulnerabilities: body.vulnerabilities,
        by: principal.id,
      }),
    );
  }
}
