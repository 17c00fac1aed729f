import { Controller, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BrowserErrorFilter } from '../../web/browser-error.filter.js';
import { CsrfGuard } from '../../web/csrf.guard.js';
import { redirect } from '../../web/page-layout.js';
import { SessionCookie } from '../../web/session-cookie.js';
import { SignOutCommand } from './sign-out.command.js';

/** POST /logout (a form with its CSRF token): the session ends, the cookie goes, back to /login. */
@Controller()
@UseFilters(BrowserErrorFilter)
export class SignOutController {
  constructor(
    private readonly commands: CommandBus,
    private readonly cookie: SessionCookie,
  ) {}

  @Post('logout')
  @UseGuards(CsrfGuard)
  async signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.commands.execute(new SignOutCommand(this.cookie.read(request)));
    this.cookie.clear(reply);
    redirect(reply, '/login?signed_out=1');
  }
}
