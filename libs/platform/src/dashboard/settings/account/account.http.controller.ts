import { Controller, Get, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { GetAccountUsageQuery } from '../../../accounts/queries/get-account-usage/get-account-usage.query.js';
import { GetAccountQuery } from '../../../accounts/queries/get-account/get-account.query.js';
import type { Session } from '../../../sessions/session.store.js';
import { BrowserErrorFilter } from '../../../web/browser-error.filter.js';
import { redirect, sendPage } from '../../../web/page-layout.js';
import { CurrentSession, SignedInGuard } from '../../../web/signed-in.guard.js';
import { accountPage } from './account.page.js';

/**
 * GET /dashboard/settings/account: every user of the account (GET /v1/account needs `read`,
 * which members hold too). GET /dashboard/settings leads here.
 */
@Controller('dashboard/settings')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class AccountPageController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  settings(@Res() reply: FastifyReply): void {
    redirect(reply, '/dashboard/settings/account');
  }

  @Get('account')
  async show(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const [account, usage] = await Promise.all([
      this.queries.execute(new GetAccountQuery(session.accountId)),
      this.queries.execute(new GetAccountUsageQuery(session.accountId)),
    ]);
    sendPage(reply, 200, accountPage(session, csrfTokenFor(request, reply), account, usage));
  }
}
