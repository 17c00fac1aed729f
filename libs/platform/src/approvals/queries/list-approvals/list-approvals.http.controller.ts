import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { APPROVAL_STATUSES } from '../../approval.events.js';
import { approvalViewSchema, type ApprovalView } from '../../approval.view.js';
import { ListApprovalsQuery } from './list-approvals.query.js';

const listApprovalsQuery = listQuerySchema.extend({ status: z.enum(APPROVAL_STATUSES).optional() });

@Controller('v1/approvals')
@PlatformAuth()
export class ListApprovalsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope('read')
  @Operation({
    summary: 'List approvals',
    description: 'Scope `read`. Newest first, optionally of one `status`. Paginated by `limit` and `cursor`.',
    tags: ['approvals'],
    operationId: 'listApprovals',
    query: listApprovalsQuery,
    responses: {
      200: {
        description: 'A page of approvals.',
        schema: listPageSchema(approvalViewSchema).meta({ id: 'ApprovalList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Query() query: z.output<typeof listApprovalsQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<ApprovalView>> {
    return this.queries.execute(new ListApprovalsQuery(principal.accountId, query.status, query.limit, query.cursor));
  }
}
