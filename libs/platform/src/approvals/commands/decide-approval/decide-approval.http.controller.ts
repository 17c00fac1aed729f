import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Operation, type OperationResponse } from '#http';
import { forbiddenResponse, platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { approvalIdParams, approvalViewSchema, type ApprovalView } from '../../approval.view.js';
import { DecideApprovalCommand } from './decide-approval.command.js';

const decideApprovalBody = z
  .strictObject({ comment: z.string().trim().min(1).max(4000).optional().describe('Why, for the requester.') })
  .optional()
  .meta({ id: 'DecideApprovalRequest' });

const RULES =
  'Scope `admin` (deciding is a privileged act: keys with `write` may request approvals but not grant them), and never the credential that requested it (403 `SELF_APPROVAL_FORBIDDEN`). Once only: a decided approval → 409 `APPROVAL_ALREADY_DECIDED`; past `expires_at` → 409 `APPROVAL_EXPIRED`.';

const responses = (status: string): Record<number, OperationResponse> => ({
  200: { description: `The approval, status \`${status}\`.`, schema: approvalViewSchema, headers: RATE_LIMIT_HEADERS },
  404: { description: '`APPROVAL_NOT_FOUND`.' },
  409: { description: '`APPROVAL_ALREADY_DECIDED` or `APPROVAL_EXPIRED`.' },
  ...platformErrorResponses(),
  403: forbiddenResponse(
    'The credential lacks scope `admin` (`INSUFFICIENT_SCOPE`), or it is the credential that requested the approval (`SELF_APPROVAL_FORBIDDEN`).',
    { SELF_APPROVAL_FORBIDDEN: 'SelfApprovalForbidden' },
  ),
});

@Controller('v1/approvals')
@PlatformAuth()
export class DecideApprovalController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/approve')
  @HttpCode(200)
  @RequireScope('admin')
  @Operation({
    summary: 'Approve',
    description: `Emits \`approval.approved\`. ${RULES}`,
    tags: ['approvals'],
    operationId: 'approveApproval',
    params: approvalIdParams,
    body: decideApprovalBody,
    responses: responses('approved'),
    security: ['bearer'],
  })
  approve(
    @Param() params: z.output<typeof approvalIdParams>,
    @Body() body: z.output<typeof decideApprovalBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ApprovalView> {
    return this.decide('approve', params.id, body?.comment, principal);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @RequireScope('admin')
  @Operation({
    summary: 'Reject',
    description: `Emits \`approval.rejected\`. ${RULES}`,
    tags: ['approvals'],
    operationId: 'rejectApproval',
    params: approvalIdParams,
    body: decideApprovalBody,
    responses: responses('rejected'),
    security: ['bearer'],
  })
  reject(
    @Param() params: z.output<typeof approvalIdParams>,
    @Body() body: z.output<typeof decideApprovalBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ApprovalView> {
    return this.decide('reject', params.id, body?.comment, principal);
  }

  private decide(
    decision: 'approve' | 'reject',
    approvalId: string,
    comment: string | undefined,
    principal: Principal,
  ): Promise<ApprovalView> {
    return this.commands.execute(
      new DecideApprovalCommand({
        accountId: principal.accountId,
        approvalId,
        decision,
        comment: comment ?? null,
        by: principal.id,
      }),
    );
  }
}
