import { Controller, Get, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation, type RequestOrigin } from '#http';
import { apiIndexSchema } from '../api-index.document.js';
import { envelopeSchema } from '#agent-contract';
import { noQuery } from '../catalog.schemas.js';
import { GetApiIndexQuery } from './get-index.query.js';

@Controller('api/v1')
export class GetApiIndexController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Operation({
    operationId: 'agentApiIndex',
    summary: 'The API root: its entry points by name',
    description:
      'What the descriptors link as the API’s base (api_base_url): every operation of the agent surface by name with its address (a URI template where the path has `{…}`), and the descriptor documents. No key needed.',
    tags: ['agent information'],
    query: noQuery,
    responses: { 200: { description: 'The index in the envelope.', schema: envelopeSchema(apiIndexSchema) } },
  })
  index(@Req() request: RequestOrigin) {
    return this.queries.execute(new GetApiIndexQuery(request));
  }
}
