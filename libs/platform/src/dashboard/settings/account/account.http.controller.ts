import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import {
  BrowserErrorFilter,
  ChangePasswordCommand,
  CsrfGuard,
  csrfInput,
  CurrentSession,
  formErrors,
  GetAccountQuery,
  GetAccountUsageQuery,
  redirect,
  sendPage,
  type Session,
  SessionCookie,
  SignedInGuard,
} from '#identity';
import { accountPage, type PasswordFormState } from './account.page.js';

const passwordForm = z.object({
  current_password: z.string().max(1024),
  new_password: z.string().max(1024),
  confirm_password: z.string().max(1024),
  username: z.string().max(320).optional(),
  ...csrfInput,
});
const PASSWORD_LABELS = { current_password: 'Current password', new_password: 'New password' };

/**
 * GET /dashboard/settings/account: every user of the account (GET /v1/account needs `read`,
 * which members hold too). GET /dashboard/settings leads here.
 */
@Controller('dashboard/settings')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class AccountPageController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly cookie: SessionCookie,
  ) {}

  @Get()
  settings(@Res() reply: FastifyReply): void {
    redirect(reply, '/dashboard/settings/account');
  }

  @Get('account')
  async show(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const done = (request.query as Record<string, unknown> | undefined)?.done === 'password';
    await this.page(session, request, reply, 200, { done });
  }

  /**
   * POST …/account/password: "Change password": the current password, the
   * new one twice; the other sessions of the user end, this one stays; 303 back (PRG).
   */
  @Post('account/password')
  @UseGuards(CsrfGuard)
  async changePassword(
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const form = passwordForm.safeParse(request.body ?? {});
    if (!form.success) return this.page(session, request, reply, 422, { errors: ['Fill in the three fields.'] });
    if (form.data.new_password !== form.data.confirm_password)
      return this.page(session, request, reply, 422, {
        errors: ['The two new passwords differ: type the same one twice.'],
      });
    try {
      await this.commands.execute(
        new ChangePasswordCommand({
          userId: session.userId,
          currentPassword: form.data.current_password,
          newPassword: form.data.new_password,
          keepSessionToken: this.cookie.read(request),
        }),
      );
    } catch (error) {
      const errors = formErrors(error, PASSWORD_LABELS);
      if (!errors) throw error;
      return this.page(session, request, reply, 422, { errors });
    }
    redirect(reply, '/dashboard/settings/account?done=password#password');
  }

  private async page(
    session: Session,
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    password: PasswordFormState,
  ): Promise<void> {
    const [account, usage] = await Promise.all([
      this.queries.execute(new GetAccountQuery(session.accountId)),
      this.queries.execute(new GetAccountUsageQuery(session.accountId)),
    ]);
    sendPage(reply, status, accountPage(session, csrfTokenFor(request, reply), account, usage, password));
  }
}
