import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AnonymousLimit } from '#access';
import { CSRF_FIELD, csrfTokenFor } from '#http';
import { CsrfGuard } from '../../web/csrf.guard.js';
import { BrowserErrorFilter } from '../../web/browser-error.filter.js';
import { redirect, sendPage } from '../../web/page-layout.js';
import { AFTER_SIGN_IN, safeNext } from '../../web/safe-next.js';
import { SessionCookie } from '../../web/session-cookie.js';
import { GetSessionQuery } from '../get-session/get-session.query.js';
import { SignInCommand } from './sign-in.command.js';
import { signInPage } from './sign-in.page.js';
import { signInForm, signInPageQuery } from './sign-in.schema.js';

/** The same words for an unknown email and a wrong password. */
export const SIGN_IN_REFUSED = 'Wrong email or password.';

/**
 * GET /login: the form (or straight on, when the browser is signed in already).
 * POST /login: CSRF token, then the attempt; 303 to `next` (a path on this site) or /dashboard.
 */
@Controller()
@UseFilters(BrowserErrorFilter)
export class SignInController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly cookie: SessionCookie,
  ) {}

  @Get('login')
  async form(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const query = signInPageQuery.safeParse(request.query);
    const next = query.success ? safeNext(query.data.next) : undefined;
    const session = await this.queries.execute(new GetSessionQuery(this.cookie.read(request)));
    if (session) {
      redirect(reply, next ?? AFTER_SIGN_IN);
      return;
    }
    const signedOut = query.success && query.data.signed_out === '1';
    const passwordReset = query.success && query.data.reset === '1';
    sendPage(reply, 200, signInPage({ csrfToken: csrfTokenFor(request, reply), next, signedOut, passwordReset }));
  }

  @Post('login')
  @UseGuards(CsrfGuard)
  @AnonymousLimit('sign_in')
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = signInForm.safeParse(request.body ?? {});
    const body = (request.body ?? {}) as Record<string, unknown>;
    // The token just accepted stays valid for this browser: the form shown again carries it.
    const csrfToken = typeof body[CSRF_FIELD] === 'string' ? body[CSRF_FIELD] : csrfTokenFor(request, reply);
    const next = safeNext(body.next);
    const email = typeof body.email === 'string' ? body.email.trim().slice(0, 320) : '';
    if (!form.success) {
      const notice = 'Enter your email and your password.';
      sendPage(reply, 422, signInPage({ csrfToken, next, email, notice }));
      return;
    }
    const result = await this.commands.execute(
      new SignInCommand({
        email: form.data.email,
        password: form.data.password,
        clientAddress: request.ip,
        previousSessionToken: this.cookie.read(request),
      }),
    );
    switch (result.outcome) {
      case 'signed_in':
        this.cookie.signedIn(request, reply, result.sessionToken);
        redirect(reply, next ?? AFTER_SIGN_IN);
        return;
      case 'refused':
        sendPage(reply, 422, signInPage({ csrfToken, next, email, notice: SIGN_IN_REFUSED }));
        return;
      case 'throttled': {
        const wait =
          result.reason === 'locked'
            ? `Sign-in for this email from your address is paused for 15 minutes after too many failed attempts. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} minutes.`
            : `Too many failed attempts for this email. Wait ${result.retryAfterSeconds} seconds, then try again.`;
        sendPage(reply, 429, signInPage({ csrfToken, next, email, notice: wait }), {
          'retry-after': String(result.retryAfterSeconds),
        });
        return;
      }
    }
  }
}
