import { Controller, Get, Param, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation, type RequestOrigin } from '#http';
import { noQuery } from '../catalog.schemas.js';
import { registryIndexSchema, registryPackSchema, registryTargetParams } from '../registry-pack.document.js';
import { GetRegistryPackQuery } from './get-registry-pack.query.js';

// Operation ids are the ones these routes had when one controller served them all (stable for SDKs).
const TAGS = ['agent information'];

@Controller('api/v1/agents')
export class GetRegistryPackController {
  constructor(private readonly queries: QueryBus) {}

  @Get('registry-pack')
  @Operation({
    description:
      'The agent registries this service publishes registration material for (openai, mcp, generic), with the URL of each pack. Public, no key.',
    operationId: 'AgentsInformationController_getRegistryIndex',
    summary: 'Registration material for agent registries: the targets',
    tags: TAGS,
    query: noQuery,
    responses: { 200: { description: 'Registry targets.', schema: registryIndexSchema } },
  })
  getRegistryIndex(@Req() request: RequestOrigin) {
    return this.queries.execute(new GetRegistryPackQuery(undefined, request));
  }

  @Get('registry-pack/:target')
  @Operation({
    description:
      'Registration material for one registry: the tool definitions and descriptions to register this service with (openai functions, an MCP server entry, or a generic listing). An unknown target is 404. Public, no key.',
    operationId: 'AgentsInformationController_getRegistryPack',
    summary: 'Registration material for one registry: openai, mcp or generic',
    tags: TAGS,
    params: registryTargetParams,
    query: noQuery,
    responses: {
      200: { description: 'The registry pack.', schema: registryPackSchema },
      404: { description: 'Unknown target (REGISTRY_TARGET_NOT_FOUND).' },
    },
  })
  getRegistryPack(@Req() request: RequestOrigin, @Param() params: z.output<typeof registryTargetParams>) {
    return this.queries.execute(new GetRegistryPackQuery(params.target, request));
  }
}
