import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { type AddCompanyBody, addCompanyBody } from '../../workspace.schemas.js';
import { AddWorkspaceCompanyCommand } from './add-company.command.js';
import { workspaceCompanyDetailSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/companies')
export class AddWorkspaceCompanyController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @WorkspaceRoute('write.workspace.note')
  @Operation({
    summary: 'Add a company to the workspace',
    description:
      'By `company_id` of the discovery universe (its profile and score are copied into the workspace), or by `name` and `domain`. One company per domain: adding a domain again is 409 `WORKSPACE_COMPANY_EXISTS` with its id. Meter `write.workspace.note`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceAddCompany',
    body: addCompanyBody,
    responses: {
      201: {
        description: 'The workspace company, with the copied profile and score.',
        schema: envelopeSchema(workspaceCompanyDetailSchema, 'WorkspaceCompanyResponse'),
      },
      404: { description: 'COMPANY_NOT_FOUND: no company of the universe has this id; not charged.' },
      409: { description: 'WORKSPACE_COMPANY_EXISTS: the workspace has this domain already; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async add(@Body() body: AddCompanyBody, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(this.clock.now(), await this.commands.execute(new AddWorkspaceCompanyCommand(tenant, body)));
  }
}
