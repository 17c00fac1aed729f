import { Controller, Get, Inject, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { CLOCK, type Clock } from '#kernel';
import { Operation } from '#http';
import { agentEnvelope, type AgentEnvelope, envelopeSchema } from '#agent-contract';
import { Metered } from '#agent-billing';
import { CHARGED_HEADERS, PAID_READ_RESPONSES } from '../paid-read.responses.js';
import { companyParams, companyProfileSchema, type CompanyProfileView } from '../company.views.js';
import { GetCompanyProfileQuery } from './get-company-profile.query.js';

@Controller('api/v1/companies')
export class GetCompanyProfileController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id')
  @Metered('read.company_profile')
  @Operation({
    summary: 'Company profile',
    description:
      'The imported facts about one company (sectors, headquarters, stage, headcount, funding, last round, investors), its time series (headcount, web traffic, cumulative funding) and the growth computed from them. `{id}` is the company id (`cmp_…`) or its domain. Meter `read.company_profile`, charged only when the profile is returned; an unknown company is 404 and costs nothing.',
    tags: ['agent data'],
    operationId: 'getCompany',
    params: companyParams,
    responses: {
      200: {
        description: 'The profile, in the {version, as_of, data} envelope.',
        schema: envelopeSchema(companyProfileSchema, 'CompanyProfileResponse'),
        headers: CHARGED_HEADERS,
      },
      404: { description: 'No company has this id or domain (`COMPANY_NOT_FOUND`); not charged.' },
      ...PAID_READ_RESPONSES,
    },
    security: ['apiKey', 'bearer'],
  })
  async get(@Param() params: z.output<typeof companyParams>): Promise<AgentEnvelope<CompanyProfileView>> {
    const profile = await this.queries.execute(new GetCompanyProfileQuery(params.id));
    return agentEnvelope(this.clock.now(), profile);
  }
}
