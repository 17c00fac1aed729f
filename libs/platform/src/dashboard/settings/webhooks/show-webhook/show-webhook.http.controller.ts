import { Controller, Get, Param, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { GetDeliveryRequestQuery, GetWebhookQuery, ListDeliveriesQuery } from '#webhooks';
import type { Session } from '../../../../sessions/session.store.js';
import { BrowserErrorFilter } from '../../../../web/browser-error.filter.js';
import { sendPage } from '../../../../web/page-layout.js';
import { RequirePageScope } from '../../../../web/session-scope.guard.js';
import { CurrentSession, SignedInGuard } from '../../../../web/signed-in.guard.js';
import { listPageQuery } from '../../form-input.js';
import { sessionOwner } from '../webhook-pages.js';
import { webhookPage } from './webhook.page.js';

/** Recent deliveries shown per page. */
const DELIVERIES_PER_PAGE = 20;

const DONE: Record<string, string> = {
  added: 'The webhook is added.',
  updated: 'The webhook is updated.',
  enabled: 'The webhook is enabled.',
  disabled: 'The webhook is disabled.',
  tested: 'A test event (webhook.test) is on its way: see Recent deliveries.',
  redelivered: 'The delivery is being sent again: its new attempt is shown below.',
};

/** GET /dashboard/settings/webhooks/{id}: the webhook and its Recent deliveries (admins; others' ids 404). */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class ShowWebhookPageController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @RequirePageScope('admin')
  async show(
    @CurrentSession() session: Session,
    @Param('id') id: string,
    @Query() query: Record<string, unknown> | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const owner = sessionOwner(session);
    const parsed = listPageQuery.safeParse(query ?? {});
    const cursor = parsed.success ? parsed.data.cursor : undefined;
    const webhook = await this.queries.execute(new GetWebhookQuery('platform', owner, id));
    const page = await this.queries.execute(
      new ListDeliveriesQuery('platform', owner, webhook.id, DELIVERIES_PER_PAGE, cursor),
    );
    const deliveries = await Promise.all(
      page.data.map(async (delivery) => ({
        delivery,
        request: await this.queries.execute(new GetDeliveryRequestQuery('platform', owner, webhook.id, delivery.id)),
      })),
    );
    const done = typeof query?.done === 'string' ? DONE[query.done] : undefined;
    sendPage(
      reply,
      200,
      webhookPage({
        session,
        csrfToken: csrfTokenFor(request, reply),
        webhook,
        deliveries,
        nextCursor: page.next_cursor,
        done,
        ...(typeof query?.open === 'string' ? { open: query.open } : {}),
      }),
    );
  }
}
