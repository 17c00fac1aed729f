import { Body, Controller, Inject, Param, Post, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import {
  type CreateFollowUpBody,
  createFollowUpBody,
  followUpParams,
  type UpsertFollowUpBody,
  upsertFollowUpBody,
  workspaceCompanyParams,
} from '../../workspace.schemas.js';
import { UpsertFollowUpCommand } from './upsert-follow-up.command.js';
import { followUpSchema } from '../../workspace.response-schemas.js';

interface Reply {
  code(status: number): unknown;
}

@Controller('api/v1/workspace/companies')
export class UpsertFollowUpController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The spec's path: creates, or with the client's `key` creates or updates (the PUT below by body). */
  @Post(':id/follow-ups')
  @WorkspaceRoute('write.workspace.followup')
  @Operation({
    summary: 'Create a follow-up (or update the one with your key)',
    description:
      '`{title, due_at, assignee?, status: open|done, key?}`. Without `key` a new follow-up under a key the service makes (`fu_…`, in the answer); with your `key` the same as `PUT …/follow-ups/{key}`: created (201), or updated or unchanged (200), so a retry never makes a second one. Turning it done records `workspace.followup.completed`. Meter `write.workspace.followup`, charged only on a 2xx.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceCreateFollowUp',
    params: workspaceCompanyParams,
    body: createFollowUpBody,
    responses: {
      200: {
        description: 'The follow-up with your key (updated or unchanged).',
        schema: envelopeSchema(followUpSchema),
      },
      201: { description: 'The follow-up (created).', schema: envelopeSchema(followUpSchema) },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async create(
    @Param() params: z.output<typeof workspaceCompanyParams>,
    @Body() body: CreateFollowUpBody,
    @CurrentTenant() tenant: TenantCaller,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const { key, ...fields } = body;
    return this.upsertAndAnswer(new UpsertFollowUpCommand(tenant, params.id, key ?? null, fields), reply);
  }

  @Put(':id/follow-ups/:key')
  @WorkspaceRoute('write.workspace.followup')
  @Operation({
    summary: 'Create or update a follow-up',
    description:
      '`{title, due_at, assignee?, status: open|done}` under the client’s key: 201 when created, 200 when updated or unchanged (the same PUT again changes nothing). Turning it done records `workspace.followup.completed`. Meter `write.workspace.followup`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceUpsertFollowUp',
    params: followUpParams,
    body: upsertFollowUpBody,
    responses: {
      200: {
        description: 'The follow-up (updated or unchanged).',
        schema: envelopeSchema(followUpSchema, 'WorkspaceFollowUpResponse'),
      },
      201: { description: 'The follow-up (created).', schema: envelopeSchema(followUpSchema) },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async upsert(
    @Param() params: z.output<typeof followUpParams>,
    @Body() body: UpsertFollowUpBody,
    @CurrentTenant() tenant: TenantCaller,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    return this.upsertAndAnswer(new UpsertFollowUpCommand(tenant, params.id, params.key, body), reply);
  }

  private async upsertAndAnswer(command: UpsertFollowUpCommand, reply: Reply) {
    const { followUp, created } = await this.commands.execute(command);
    reply.code(created ? 201 : 200);
    return agentEnvelope(this.clock.now(), followUp);
  }
}
