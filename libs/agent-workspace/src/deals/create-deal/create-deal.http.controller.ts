import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { type CreateDealBody, createDealBody } from '../../workspace.schemas.js';
import { CreateDealCommand } from './create-deal.command.js';
import { dealSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/deals')
export class CreateDealController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @WorkspaceRoute('write.workspace.note')
  @Operation({
    summary: 'Create a deal',
    description:
      '`{company_id, name, stage?, amount_usd?, owner?}` on a company of the workspace; stage defaults to sourced. Meter `write.workspace.note`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceCreateDeal',
    body: createDealBody,
    responses: {
      201: {
        description: 'The deal in the envelope.',
        schema: envelopeSchema(dealSchema, 'WorkspaceDealCreatedResponse'),
      },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async create(@Body() body: CreateDealBody, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(this.clock.now(), await this.commands.execute(new CreateDealCommand(tenant, body)));
  }
}
