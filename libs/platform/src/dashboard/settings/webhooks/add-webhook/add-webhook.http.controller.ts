import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { CreateWebhookCommand } from '#webhooks';
import {
  BrowserErrorFilter,
  CsrfGuard,
  CurrentSession,
  formErrors,
  OneTimeFlashStore,
  redirect,
  RequirePageScope,
  sendPage,
  type Session,
  SessionCookie,
  SignedInGuard,
  signInRequired,
  zodErrors,
} from '#identity';
import { sessionOwner, webhookPath } from '../webhook-pages.js';
import {
  chosenSecret,
  type GeneratedWebhookSecret,
  typedWebhookForm,
  WEBHOOK_LABELS,
  WEBHOOK_SECRET_FLASH,
  webhookForm,
} from '../webhook-form.js';
import { addWebhookPage } from './add-webhook.page.js';

/**
 * GET …/webhooks/new: the form; POST …/webhooks: "Add webhook", the command of POST /v1/webhooks.
 * A generated secret goes to a one-time flash and is shown once on the page redirected to.
 */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class AddWebhookPageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly cookie: SessionCookie,
    private readonly flashes: OneTimeFlashStore,
  ) {}

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
    const secret = chosenSecret(form.data, { editing: false });
    if ('error' in secret) return again([secret.error]);
    const sessionToken = this.cookie.read(request);
    if (!sessionToken) throw signInRequired();
    try {
      const webhook = await this.commands.execute(
        new CreateWebhookCommand({
          channel: 'platform',
          owner: sessionOwner(session),
          url: form.data.url,
          events: form.data.events,
          secret: secret.secret ?? '',
        }),
      );
      if (secret.generated)
        await this.flashes.put(WEBHOOK_SECRET_FLASH, sessionToken, {
          webhookId: webhook.id,
          secret: secret.secret!,
        } satisfies GeneratedWebhookSecret);
      redirect(reply, `${webhookPath(webhook.id)}?done=added`);
    } catch (error) {
      const errors = formErrors(error, WEBHOOK_LABELS);
      if (!errors) throw error;
      again(errors);
    }
  }
}
