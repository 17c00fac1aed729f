import { Controller, Get, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { CLOCK, type Clock } from '#kernel';
import { Operation } from '#http';
import { agentEnvelope, type AgentEnvelope, envelopeSchema } from '#agent-contract';
import { ModelHealthQuery } from './model-health.query.js';
import { type ModelHealth, modelHealthSchema } from './model-health.schema.js';

@Controller('api/v1/model')
export class ModelHealthController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('health')
  @Operation({
    summary: 'Scoring model version and data freshness (free, no key)',
    description:
      'Model version, companies scored, time of the last import, projection lag and a status. No key needed, never charged.',
    tags: ['agent data'],
    operationId: 'getModelHealth',
    query: z.strictObject({}),
    responses: {
      200: {
        description: 'Model health, in the {version, as_of, data} envelope.',
        schema: envelopeSchema(modelHealthSchema, 'ModelHealthResponse'),
      },
    },
  })
  async health(): Promise<AgentEnvelope<ModelHealth>> {
    return agentEnvelope(this.clock.now(), await this.queries.execute(new ModelHealthQuery()));
  }
}
