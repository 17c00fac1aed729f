import { Controller, Get, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { ListWebhooksQuery } from '#webhooks';
import {
  BrowserErrorFilter,
  CurrentSession,
  listPageQuery,
  RequirePageScope,
  sendPage,
  type Session,
  SignedInGuard,
} from '#identity';
import { sessionOwner } from '../webhook-pages.js';
import { webhooksPage } from './webhooks.page.js';

const DONE: Record<string, string> = { deleted: 'The webhook is deleted.' };

/** GET /dashboard/settings/webhooks (admins, like GET /v1/webhooks). */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class ListWebhooksPageController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequirePageScope('admin')
  async show(
    @CurrentSession() session: Session,
    @Query() query: Record<string, unknown> | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const parsed = listPageQuery.safeParse(query ?? {});
    const cursor = parsed.success ? parsed.data.cursor : undefined;
    const page = await this.queries.execute(new ListWebhooksQuery('platform', sessionOwner(session), 50, cursor));
    const done = typeof query?.done === 'string' ? DONE[query.done] : undefined;
    sendPage(
      reply,
      200,
      webhooksPage({
        session,
        csrfToken: csrfTokenFor(request, reply),
        webhooks: page.data,
        nextCursor: page.next_cursor,
        done,
      }),
    );
  }
}
