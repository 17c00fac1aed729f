import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { DeleteWebhookCommand, GetWebhookQuery } from '#webhooks';
import {
  BrowserErrorFilter,
  CsrfGuard,
  CurrentSession,
  redirect,
  RequirePageScope,
  sendPage,
  type Session,
  SignedInGuard,
} from '#identity';
import { sessionOwner, WEBHOOKS_PATH } from '../webhook-pages.js';
import { deleteWebhookPage } from './delete-webhook.page.js';

/** GET …/{id}/delete: the confirmation; POST: the command of DELETE /v1/webhooks/{id}. */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class DeleteWebhookPageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':id/delete')
  @RequirePageScope('admin')
  async confirm(
    @CurrentSession() session: Session,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const webhook = await this.queries.execute(new GetWebhookQuery('platform', sessionOwner(session), id));
    sendPage(reply, 200, deleteWebhookPage(session, csrfTokenFor(request, reply), webhook));
  }

  @Post(':id/delete')
  @UseGuards(CsrfGuard)
  @RequirePageScope('admin')
  async delete(@CurrentSession() session: Session, @Param('id') id: string, @Res() reply: FastifyReply) {
    await this.commands.execute(
      new DeleteWebhookCommand({ channel: 'platform', owner: sessionOwner(session), webhookId: id }),
    );
    redirect(reply, `${WEBHOOKS_PATH}?done=deleted`);
  }
}
