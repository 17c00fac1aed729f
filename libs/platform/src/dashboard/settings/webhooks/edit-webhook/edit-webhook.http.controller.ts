import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { csrfTokenFor } from '#http';
import { Errors } from '#kernel';
import { GetWebhookQuery, UpdateWebhookCommand } from '#webhooks';
import {
  BrowserErrorFilter,
  CsrfGuard,
  csrfInput,
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
import { editWebhookPage } from './edit-webhook.page.js';

const activeForm = z.object({ active: z.enum(['true', 'false']), ...csrfInput });

/**
 * GET …/{id}/edit and POST …/{id}: edit (keep the secret, generate a new one shown once, or type one);
 * POST …/{id}/active: Disable / Enable. Both the command of PATCH /v1/webhooks/{id}.
 */
@Controller('dashboard/settings/webhooks')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class EditWebhookPageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly cookie: SessionCookie,
    private readonly flashes: OneTimeFlashStore,
  ) {}

  @Get(':id/edit')
  @RequirePageScope('admin')
  async form(
    @CurrentSession() session: Session,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const webhook = await this.queries.execute(new GetWebhookQuery('platform', sessionOwner(session), id));
    sendPage(
      reply,
      200,
      editWebhookPage(session, csrfTokenFor(request, reply), webhook.id, {
        url: webhook.url,
        events: webhook.events,
        errors: [],
      }),
    );
  }

  @Post(':id')
  @UseGuards(CsrfGuard)
  @RequirePageScope('admin')
  async update(
    @CurrentSession() session: Session,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const owner = sessionOwner(session);
    // Unknown and foreign ids are 404 before the form is looked at.
    const webhook = await this.queries.execute(new GetWebhookQuery('platform', owner, id));
    const again = (errors: string[]) =>
      sendPage(
        reply,
        422,
        editWebhookPage(session, csrfTokenFor(request, reply), webhook.id, typedWebhookForm(request.body, errors)),
      );
    const form = webhookForm.safeParse(request.body ?? {});
    if (!form.success) return again(zodErrors(form.error, WEBHOOK_LABELS));
    const secret = chosenSecret(form.data, { editing: true });
    if ('error' in secret) return again([secret.error]);
    const sessionToken = this.cookie.read(request);
    if (!sessionToken) throw signInRequired();
    try {
      await this.commands.execute(
        new UpdateWebhookCommand({
          channel: 'platform',
          owner,
          webhookId: webhook.id,
          url: form.data.url,
          events: form.data.events,
          ...(secret.secret !== undefined ? { secret: secret.secret } : {}),
        }),
      );
    } catch (error) {
      const errors = formErrors(error, WEBHOOK_LABELS);
      if (!errors) throw error;
      return again(errors);
    }
    if (secret.generated)
      await this.flashes.put(WEBHOOK_SECRET_FLASH, sessionToken, {
        webhookId: webhook.id,
        secret: secret.secret!,
      } satisfies GeneratedWebhookSecret);
    redirect(reply, `${webhookPath(webhook.id)}?done=updated`);
  }

  @Post(':id/active')
  @UseGuards(CsrfGuard)
  @RequirePageScope('admin')
  async setActive(
    @CurrentSession() session: Session,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const form = activeForm.safeParse(request.body ?? {});
    if (!form.success) throw Errors.validation([{ path: 'active', message: 'must be true or false' }]);
    const active = form.data.active === 'true';
    await this.commands.execute(
      new UpdateWebhookCommand({ channel: 'platform', owner: sessionOwner(session), webhookId: id, active }),
    );
    redirect(reply, `${webhookPath(id)}?done=${active ? 'enabled' : 'disabled'}`);
  }
}
