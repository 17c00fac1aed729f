import { Controller, Get, Query } from '@nestjs/common';
import { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#common';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '../../access/platform-openapi.js';
import { PlatformAuth, RequireScope } from '../../access/require-scope.decorator.js';

const repositoryPlaceholderSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: 'RepositorySummary' });

/**
 * PLACEHOLDER until the repositories feature (issue 4) lands: an authenticated, rate-limited,
 * always empty list (the platform benchmark measures it). Issue 4 replaces this controller and
 * removes it from PlatformModule's `controllers`.
 */
@Controller('v1/repositories')
@PlatformAuth()
export class ListRepositoriesPlaceholderController {
  @Get()
  @RequireScope('read')
  @Operation({
    summary: 'List connected repositories',
    description: 'Scope `read`. Paginated by `limit` and `cursor` (D6).',
    tags: ['repositories'],
    operationId: 'listRepositories',
    query: listQuerySchema,
    responses: { 200: { description: 'A page of repositories.', schema: listPageSchema(repositoryPlaceholderSchema), headers: RATE_LIMIT_HEADERS }, ...platformErrorResponses() },
    security: ['bearer'],
  })
  list(@Query() _query: z.output<typeof listQuerySchema>): ListPage<z.output<typeof repositoryPlaceholderSchema>> {
    return { data: [], has_more: false, next_cursor: null };
  }
}
