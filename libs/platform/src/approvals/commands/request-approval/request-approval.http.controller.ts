import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { approvalViewSchema, type ApprovalView } from '../../approval.view.js';
import { RequestApprovalCommand } from './request-approval.command.js';
import { requestApprovalBody } from './request-approval.schema.js';

@Controller('v1/approvals')
@PlatformAuth()
export class RequestApprovalController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @RequireScope('write')
  @Operation({
    summary: 'Request an approval',
    description:
      'Scope `write`. Asks a person to approve an action on a resource (an agent wants to push a fix, ...). Emits `approval.requested`. It expires 7 days later if nobody decides.',
    tags: ['approvals'],
    operationId: 'requestApproval',
    body: requestApprovalBody,
    responses: {
      201: { description: 'The pending approval.', schema: approvalViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`REPOSITORY_NOT_FOUND` or `RUN_NOT_FOUND`.' },
      409: { description: '`REPOSITORY_DISCONNECTED`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  request(
    @Body() body: z.output<typeof requestApprovalBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ApprovalView> {
    return this.commands.execute(
      new RequestApprovalCommand({
        accountId: principal.accountId,
        action: body.action,
        resource: body.resource,
        description: body.description ?? null,
        repositoryId: body.repository_id ?? null,
        runId: body.run_id ?? null,
        by: principal.id,
      }),
    );
  }
}
