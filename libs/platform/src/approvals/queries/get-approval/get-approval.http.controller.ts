import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { approvalIdParams, approvalViewSchema, type ApprovalView } from '../../approval.view.js';
import { GetApprovalQuery } from './get-approval.query.js';

@Controller('v1/approvals')
@PlatformAuth()
export class GetApprovalController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @RequireScope('read')
  @Operation({
    summary: 'Get an approval',
    description: 'Scope `read`. A pending approval past its deadline shows as `expired`.',
    tags: ['approvals'],
    operationId: 'getApproval',
    params: approvalIdParams,
    responses: {
      200: { description: 'The approval.', schema: approvalViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`APPROVAL_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(
    @Param() params: z.output<typeof approvalIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ApprovalView> {
    return this.queries.execute(new GetApprovalQuery(principal.accountId, params.id));
  }
}
