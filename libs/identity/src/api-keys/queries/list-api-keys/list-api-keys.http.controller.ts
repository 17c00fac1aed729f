import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '../../../shared/platform-openapi.js';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { apiKeyViewSchema, type ApiKeyView } from '#access';
import { ListApiKeysQuery } from '#access';

@Controller('v1/api-keys')
@PlatformAuth()
export class ListApiKeysController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope('admin')
  @Operation({
    summary: "List the account's API keys",
    description:
      'Scope `admin`. Newest first; values are never shown, revoked keys carry `revoked_at`. Paginated by `limit` (default 20, at most 100) and `cursor`.',
    tags: ['api-keys'],
    operationId: 'listApiKeys',
    query: listQuerySchema,
    responses: {
      200: {
        description: 'A page of keys.',
        schema: listPageSchema(apiKeyViewSchema).meta({ id: 'ApiKeyList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Query() query: z.output<typeof listQuerySchema>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<ApiKeyView>> {
    return this.queries.execute(new ListApiKeysQuery(principal.accountId, query.limit, query.cursor));
  }
}
