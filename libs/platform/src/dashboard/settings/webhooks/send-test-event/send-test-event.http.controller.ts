import { Controller, Param, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { SendTestEventCommand } from '#webhooks';
import {
  BrowserErrorFilter,
  CsrfGuard,
  CurrentSession,
  redirect,
  RequirePageScope,
  type Session,
  SignedInGuard,
} from '#identity';
import { sessionOwner, webhookPath } from '../webhook-pages.js';

/** POST …/{id}/test: "Send test event", the command of POST /v1/webhooks/{id}/test. */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class SendTestEventPageController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/test')
  @UseGuards(CsrfGuard)
  @RequirePageScope('admin')
  async send(@CurrentSession() session: Session, @Param('id') id: string, @Res() reply: FastifyReply) {
    await this.commands.execute(
      new SendTestEventCommand({ channel: 'platform', owner: sessionOwner(session), webhookId: id }),
    );
    redirect(reply, `${webhookPath(id)}?done=tested#recent-deliveries`);
  }
}
