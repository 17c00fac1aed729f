import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { Operation } from '#http';
import { agentEnvelope, type AgentEnvelope, envelopeSchema } from '#agent-contract';
import { CHARGED_HEADERS, PAID_READ_RESPONSES } from '../../companies/paid-read.responses.js';
import { Metered } from '#agent-billing';
import { TopCompaniesQuery } from './top-companies.query.js';
import {
  type DiscoveryPage,
  discoveryPageSchema,
  topCompaniesQuerySchema,
  type TopCompaniesQueryParams,
} from './top-companies.schema.js';

@Controller('api/v1/discovery')
export class TopCompaniesController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('top')
  @Metered('read.discovery_top')
  @Operation({
    summary: 'Ranked list of startup opportunities',
    description:
      'Companies ranked by venture score (descending; ties by company id), each with its rank, score and a profile summary. Optional filters `sector`, `stage`, `country`; `limit` default 10, at most 100 (more is 400); pages continue with `cursor` = the previous `next_cursor` and the same filters. Meter `read.discovery_top` per page returned; a 400 costs nothing.',
    tags: ['agent data'],
    operationId: 'getTopDiscovery',
    query: topCompaniesQuerySchema,
    responses: {
      200: {
        description: 'A page of the ranking, in the {version, as_of, data} envelope.',
        schema: envelopeSchema(discoveryPageSchema, 'DiscoveryResponse'),
        headers: CHARGED_HEADERS,
      },
      ...PAID_READ_RESPONSES,
    },
    security: ['apiKey', 'bearer'],
  })
  async top(@Query() query: TopCompaniesQueryParams): Promise<AgentEnvelope<DiscoveryPage>> {
    const page = await this.queries.execute(new TopCompaniesQuery(query));
    return agentEnvelope(this.clock.now(), page);
  }
}
