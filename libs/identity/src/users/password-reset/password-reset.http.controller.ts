import { Controller, Get, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AnonymousLimit } from '#access';
import { csrfTokenFor, publicBaseUrl } from '#http';
import { APP_CONFIG, type AppConfig, AppError } from '#kernel';
import { BrowserErrorFilter } from '../../web/browser-error.filter.js';
import { CsrfGuard } from '../../web/csrf.guard.js';
import { redirect, sendPage } from '../../web/page-layout.js';
import { formErrors } from '../../web/form-input.js';
import { MailPasswordResetCommand } from '../commands/mail-password-reset/mail-password-reset.command.js';
import { ResetPasswordCommand } from '../commands/reset-password/reset-password.command.js';
import { CanMailPasswordResetQuery } from '../queries/can-mail-password-reset/can-mail-password-reset.query.js';
import { CheckResetTokenQuery } from '../queries/check-reset-token/check-reset-token.query.js';
import {
  FORGOT_PASSWORD_PATH,
  forgotPasswordPage,
  resetLinkInvalidPage,
  resetPasswordPage,
} from './password-reset.page.js';

const forgotForm = z.object({ email: z.string().trim().min(1).max(320) }).loose();
const resetForm = z
  .object({ token: z.string().max(100), new_password: z.string().max(1024), confirm_password: z.string().max(1024) })
  .loose();
const LABELS = { new_password: 'New password', password: 'New password' };

/**
 * GET/POST /password/forgot: with SVC_SMTP_URL, mails a single-use link and answers the same
 * whether the address is known or not (no account enumeration); without, says who can issue one
 * (`svc users reset-password`). GET /password/reset?token=…: the form; POST: the new password,
 * then 303 to /login. Public pages: each POST behind its CSRF token and the sign-in door's limit.
 */
@Controller()
@UseFilters(BrowserErrorFilter)
export class PasswordResetController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('password/forgot')
  async forgot(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const sent = (request.query as Record<string, unknown> | undefined)?.sent === '1';
    const mailConfigured = await this.queries.execute(new CanMailPasswordResetQuery());
    sendPage(reply, 200, forgotPasswordPage({ csrfToken: csrfTokenFor(request, reply), mailConfigured, sent }));
  }

  @Post('password/forgot')
  @UseGuards(CsrfGuard)
  @AnonymousLimit('sign_in')
  async sendLink(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.queries.execute(new CanMailPasswordResetQuery())))
      return redirect(reply, FORGOT_PASSWORD_PATH) as unknown as void;
    const form = forgotForm.safeParse(request.body ?? {});
    if (form.success)
      await this.commands.execute(
        new MailPasswordResetCommand({ email: form.data.email, baseUrl: publicBaseUrl(request, this.config) }),
      );
    redirect(reply, `${FORGOT_PASSWORD_PATH}?sent=1`);
  }

  @Get('password/reset')
  async resetForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || !(await this.queries.execute(new CheckResetTokenQuery(token)))) {
      sendPage(reply, 400, resetLinkInvalidPage());
      return;
    }
    sendPage(reply, 200, resetPasswordPage({ csrfToken: csrfTokenFor(request, reply), token }));
  }

  @Post('password/reset')
  @UseGuards(CsrfGuard)
  @AnonymousLimit('sign_in')
  async reset(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = resetForm.safeParse(request.body ?? {});
    if (!form.success) {
      sendPage(reply, 400, resetLinkInvalidPage());
      return;
    }
    const again = (errors: string[]) =>
      sendPage(
        reply,
        422,
        resetPasswordPage({ csrfToken: csrfTokenFor(request, reply), token: form.data.token, errors }),
      );
    if (form.data.new_password !== form.data.confirm_password)
      return again(['The two new passwords differ: type the same one twice.']);
    try {
      await this.commands.execute(
        new ResetPasswordCommand({ token: form.data.token, newPassword: form.data.new_password }),
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'RESET_TOKEN_INVALID') {
        sendPage(reply, 400, resetLinkInvalidPage());
        return;
      }
      const errors = formErrors(error, LABELS);
      if (!errors) throw error;
      return again(errors);
    }
    redirect(reply, '/login?reset=1');
  }
}
