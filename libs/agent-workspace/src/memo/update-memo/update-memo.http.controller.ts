import { Body, Controller, Inject, Param, Patch, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock, Errors } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { updateMemoBody, workspaceCompanyParams } from '../../workspace.schemas.js';
import type { MemoView } from '../../workspace.views.js';
import { UpdateMemoCommand } from './update-memo.command.js';
import { memoSchema } from '../../workspace.response-schemas.js';

interface Reply {
  header(name: string, value: string): unknown;
}

/** `If-Match: "3"` (or W/"3", or 3) → 3; absent → undefined; anything else is 400. */
export function ifMatchVersion(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(value);
  if (!match) throw Errors.validation([{ path: 'headers.if-match', message: 'expected the memo ETag, e.g. "3"' }]);
  return Number(match[1]);
}

@Controller('api/v1/workspace/companies')
export class UpdateMemoController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Patch(':id/memo')
  @WorkspaceRoute('write.workspace.note')
  @Operation({
    summary: 'Update a company’s memo',
    description:
      'Writes `{body}` as a new version and answers the memo with its new version and `ETag`. `If-Match` is optional. With `If-Match: "<version>"` (the `ETag` of `GET /api/v1/workspace/companies/{id}/memo`) the write applies only if that is still the current version, else 412 `MEMO_VERSION_CONFLICT` with `current_version` (not charged). Without it the last writer wins: nothing is lost, every earlier version stays listed at `GET /api/v1/workspace/companies/{id}/memo/versions`. The same body again writes nothing. Meter `write.workspace.note`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceUpdateMemo',
    params: workspaceCompanyParams,
    body: updateMemoBody,
    responses: {
      200: { description: 'The memo after the write; ETag: "<version>".', schema: envelopeSchema(memoSchema) },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      412: { description: 'MEMO_VERSION_CONFLICT: If-Match names an older version; current_version; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async update(
    @Param() params: z.output<typeof workspaceCompanyParams>,
    @Body() body: z.output<typeof updateMemoBody>,
    @CurrentTenant() tenant: TenantCaller,
    @Req() request: { headers: Record<string, string | string[] | undefined> },
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const expected = ifMatchVersion(request.headers['if-match']);
    const memo: MemoView = await this.commands.execute(new UpdateMemoCommand(tenant, params.id, body.body, expected));
    reply.header('ETag', `"${memo.version}"`);
    return agentEnvelope(this.clock.now(), memo);
  }
}
