import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '../../../shared/platform-openapi.js';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { apiKeyViewSchema, type ApiKeyView } from '#access';
import { keyIdParams } from '../../api-key.params.js';
import { GetApiKeyQuery } from '#access';

@Controller('v1/api-keys')
@PlatformAuth()
export class GetApiKeyController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':key_id')
  @RequireScope('admin')
  @Operation({
    summary: 'Get an API key',
    description: 'Scope `admin`. The key without its value.',
    tags: ['api-keys'],
    operationId: 'getApiKey',
    params: keyIdParams,
    responses: {
      200: { description: 'The key.', schema: apiKeyViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: 'No such key in this account: `KEY_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(@Param() params: z.output<typeof keyIdParams>, @CurrentPrincipal() principal: Principal): Promise<ApiKeyView> {
    return this.queries.execute(new GetApiKeyQuery(principal.accountId, params.key_id));
  }
}
