import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { workspaceCompanyParams } from '../../workspace.schemas.js';
import type { MemoView } from '../../workspace.views.js';
import { GetMemoQuery } from './get-memo.query.js';
import { memoSchema } from '../../workspace.response-schemas.js';

interface Reply {
  header(name: string, value: string): unknown;
}

@Controller('api/v1/workspace/companies')
export class GetMemoController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id/memo')
  @WorkspaceRoute('read.workspace.memo')
  @Operation({
    summary: 'Read a company’s memo',
    description:
      '`{company_id, version, body, updated_at, updated_by}` (markdown body; version 0 before the first write). `ETag: "<version>"`: send it as `If-Match` with a PATCH so it applies only to this version. Meter `read.workspace.memo`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceGetMemo',
    params: workspaceCompanyParams,
    responses: {
      200: {
        description: 'The memo in the envelope; ETag: "<version>".',
        schema: envelopeSchema(memoSchema, 'WorkspaceMemoResponse'),
      },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async get(
    @Param() params: z.output<typeof workspaceCompanyParams>,
    @CurrentTenant() tenant: TenantCaller,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const memo: MemoView = await this.queries.execute(new GetMemoQuery(tenant.tenantId, params.id));
    reply.header('ETag', `"${memo.version}"`);
    return agentEnvelope(this.clock.now(), memo);
  }
}
