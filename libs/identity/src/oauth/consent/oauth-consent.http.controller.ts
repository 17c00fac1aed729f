import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import type { Session } from '../../sessions/session.store.js';
import { GetAccountQuery } from '../../accounts/queries/get-account/get-account.query.js';
import { BrowserErrorFilter } from '../../web/browser-error.filter.js';
import { CsrfGuard } from '../../web/csrf.guard.js';
import { CONTENT_SECURITY_POLICY, redirect, sendPage } from '../../web/page-layout.js';
import { CurrentSession, SignedInGuard } from '../../web/signed-in.guard.js';
import { OAuthAuthorizationThrottleGuard } from '../server/oauth-throttle.js';
import { consentPage } from './consent.page.js';
import { OAuthInteractions } from './oauth-interactions.js';

/**
 * oidc-provider sends the browser here (its interaction URL): not signed in → /login and back
 * (SignedInGuard); signed in → the consent page; Approve / Deny → back to the provider, which
 * redirects to the client. Limited per client address with the authorization endpoint (ADR 0075).
 */
@Controller('oauth/interaction')
@UseFilters(BrowserErrorFilter)
// Counted with /oauth/authorize per client address, before the session and CSRF checks.
@UseGuards(OAuthAuthorizationThrottleGuard)
export class OAuthConsentController {
  constructor(
    private readonly interactions: OAuthInteractions,
    private readonly queries: QueryBus,
  ) {}

  @Get(':uid')
  @UseGuards(SignedInGuard)
  async show(
    @Param('uid') uid: string,
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const consent = await this.interactions.pending(request, reply, uid, session);
    // Who stands behind the application: the account that registered it.
    const owner = await this.queries.execute(new GetAccountQuery(consent.clientAccountId)).catch(() => null);
    sendPage(
      reply,
      200,
      consentPage({
        uid,
        csrfToken: csrfTokenFor(request, reply),
        email: session.email,
        ownerName: owner?.name ?? null,
        ...consent,
      }),
      {
        // Browsers apply form-action to the redirects after a form too: Approve and Deny end at
        // the client's registered redirect URI.
        'content-security-policy': CONTENT_SECURITY_POLICY.replace(
          "form-action 'self'",
          `form-action 'self' ${consent.redirectOrigin}`,
        ),
      },
    );
  }

  @Post(':uid/approve')
  @UseGuards(CsrfGuard, SignedInGuard)
  async approve(
    @Param('uid') uid: string,
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    redirect(reply, await this.interactions.approve(request, reply, uid, session));
  }

  @Post(':uid/deny')
  @UseGuards(CsrfGuard, SignedInGuard)
  async deny(@Param('uid') uid: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    redirect(reply, await this.interactions.deny(request, reply, uid));
  }
}
