import { Controller, Get, Inject, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { CLOCK, type Clock } from '#kernel';
import { Operation } from '#http';
import { agentEnvelope, type AgentEnvelope, envelopeSchema } from '#agent-contract';
import { companyParams } from '../../companies/company.views.js';
import { CHARGED_HEADERS, PAID_READ_RESPONSES } from '../../companies/paid-read.responses.js';
import { Metered } from '#agent-billing';
import { companyScoreSchema, type CompanyScoreView } from '../score.views.js';
import { GetCompanyScoreQuery } from './get-company-score.query.js';

@Controller('api/v1/companies')
export class GetCompanyScoreController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id/score')
  @Metered('read.company_score')
  @Operation({
    summary: 'Company score (0–100, named components, model version)',
    description:
      'The venture score of one company: 0–100 with its components (team, traction, momentum, market, capital_efficiency), each with value, weight, contribution and the inputs it used; the contributions sum exactly to the score. `computed_at` is the time of the import that produced it. The model is documented in docs/scoring.md. `{id}` is the company id (`cmp_…`) or its domain. Meter `read.company_score`; an unknown company is 404 and costs nothing.',
    tags: ['agent data'],
    operationId: 'getCompanyScore',
    params: companyParams,
    responses: {
      200: {
        description: 'The score, in the {version, as_of, data} envelope.',
        schema: envelopeSchema(companyScoreSchema, 'CompanyScoreResponse'),
        headers: CHARGED_HEADERS,
      },
      404: { description: 'No company has this id or domain (`COMPANY_NOT_FOUND`); not charged.' },
      ...PAID_READ_RESPONSES,
    },
    security: ['apiKey', 'bearer'],
  })
  async get(@Param() params: z.output<typeof companyParams>): Promise<AgentEnvelope<CompanyScoreView>> {
    const score = await this.queries.execute(new GetCompanyScoreQuery(params.id));
    return agentEnvelope(this.clock.now(), score);
  }
}
