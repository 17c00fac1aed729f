import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { CreateWebhookCommand } from '#webhooks';
import type { Session } from '../../../../sessions/session.store.js';
import { BrowserErrorFilter } from '../../../../web/browser-error.filter.js';
import { CsrfGuard } from '../../../../web/csrf.guard.js';
import { redirect, sendPage } from '../../../../web/page-layout.js';
import { RequirePageScope } from '../../../../web/session-scope.guard.js';
import { CurrentSession, SignedInGuard } from '../../../../web/signed-in.guard.js';
import { formErrors, zodErrors } from '../../form-input.js';
import { sessionOwner, webhookPath } from '../webhook-pages.js';
import { typedWebhookForm, WEBHOOK_LABELS, webhookForm } from '../webhook-form.js';
import { addWebhookPage } from './add-webhook.page.js';

/** GET …/webhooks/new: the form; POST …/webhooks: "Add webhook", the command of POST /v1/webhooks. */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class AddWebhookPageController {
  constructor(private readonly commands: CommandBus) {}

  @Get('new')
  @RequirePageScope('admin')
  form(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    sendPage(reply, 200, addWebhookPage(session, csrfTokenFor(request, reply), { url: '', events: [], errors: [] }));
  }

  @Post()
  @UseGuards(CsrfGuard)
  @RequirePageScope('admin')
  async add(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const again = (errors: string[]) =>
      sendPage(
        reply,
        422,
        addWebhookPage(session, csrfTokenFor(request, reply), typedWebhookForm(request.body, errors)),
      );
    const form = webhookForm.safeParse(request.body ?? {});
    if (!form.success) return again(zodErrors(form.error, WEBHOOK_LABELS));
    try {
      const webhook = await this.commands.execute(
        new CreateWebhookCommand({
          channel: 'platform',
          owner: sessionOwner(session),
          url: form.data.url,
          events: form.data.events,
          secret: form.data.secret,
        }),
      );
      redirect(reply, `${webhookPath(webhook.id)}?done=added`);
    } catch (error) {
      const errors = formErrors(error, WEBHOOK_LABELS);
      if (!errors) throw error;
      again(errors);
    }
  }
}
