import { Body, Controller, Inject, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { dealParams, type UpdateDealBody, updateDealBody } from '../../workspace.schemas.js';
import { UpdateDealCommand } from './update-deal.command.js';
import { dealSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/deals')
export class UpdateDealController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Patch(':id')
  @WorkspaceRoute('write.workspace.note')
  @Operation({
    summary: 'Update a deal',
    description:
      'Any of `stage` (sourced, screening, diligence, ic, term_sheet, closed_won, closed_lost), `amount_usd`, `next_step`, `owner`, `notes`, `name`. An open deal moves to any stage; a closed one (won or lost) only reopens to screening: other moves are 409 `DEAL_STAGE_TRANSITION_NOT_ALLOWED` with the allowed stages (not charged). Meter `write.workspace.note`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceUpdateDeal',
    params: dealParams,
    body: updateDealBody,
    responses: {
      200: {
        description: 'The deal after the change, in the envelope.',
        schema: envelopeSchema(dealSchema, 'WorkspaceDealResponse'),
      },
      404: { description: 'DEAL_NOT_FOUND; not charged.' },
      409: { description: 'DEAL_STAGE_TRANSITION_NOT_ALLOWED with from, to and allowed; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async update(
    @Param() params: z.output<typeof dealParams>,
    @Body() body: UpdateDealBody,
    @CurrentTenant() tenant: TenantCaller,
  ) {
    return agentEnvelope(this.clock.now(), await this.commands.execute(new UpdateDealCommand(tenant, params.id, body)));
  }
}
