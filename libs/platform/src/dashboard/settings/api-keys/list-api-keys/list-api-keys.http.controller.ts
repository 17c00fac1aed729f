import { Controller, Get, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListApiKeysQuery } from '#access';
import { csrfTokenFor } from '#http';
import { BrowserErrorFilter, CurrentSession, listPageQuery, sendPage, type Session, SignedInGuard } from '#identity';
import { apiKeysPage } from './api-keys.page.js';

export const API_KEYS_PAGE_SIZE = 50;

/**
 * GET /dashboard/settings/api-keys: the account's keys and the form for a new one. Every user
 * of the account sees the list (no values, ever); only admins get Revoke (ADR 0069).
 */
@Controller('dashboard/settings/api-keys')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class ListApiKeysPageController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async show(
    @CurrentSession() session: Session,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const parsed = listPageQuery.safeParse(query);
    const cursor = parsed.success ? parsed.data.cursor : undefined;
    const page = await this.queries.execute(new ListApiKeysQuery(session.accountId, API_KEYS_PAGE_SIZE, cursor));
    const done = (query as Record<string, unknown> | undefined)?.revoked === '1' ? 'The key is revoked.' : undefined;
    sendPage(
      reply,
      200,
      apiKeysPage({
        session,
        csrfToken: csrfTokenFor(request, reply),
        keys: page.data,
        nextCursor: page.next_cursor,
        done,
      }),
    );
  }
}
