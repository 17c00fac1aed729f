import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import type { AppError } from '#kernel';
import {
  BrowserErrorFilter,
  ChangeUserRoleCommand,
  CreateMemberCommand,
  CsrfGuard,
  csrfInput,
  CurrentSession,
  formErrors,
  ListAccountUsersQuery,
  OneTimeFlashStore,
  redirect,
  RemoveUserCommand,
  RequirePageScope,
  sendPage,
  type Session,
  SessionCookie,
  SignedInGuard,
  signInRequired,
  zodErrors,
} from '#identity';
import { type NewMemberLink, usersPage } from './users.page.js';

const PATH = '/dashboard/settings/users';
const FLASH = 'new-member-link';
const LABELS = { email: 'Email', role: 'Role' };
const createForm = z.object({ email: z.string().max(254), role: z.enum(['admin', 'member']), ...csrfInput });
const roleForm = z.object({ role: z.enum(['admin', 'member']), ...csrfInput });
const USER_ID = /^usr_[A-Za-z0-9_-]{1,64}$/;

/**
 * User management for admins (ADR 0083): add a user (a one-time reset link,
 * shown once after the redirect), change a role, remove. Members get 403. Refusals (the last
 * admin: 409) show on the page with their reason.
 */
@Controller('dashboard/settings/users')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class UsersPageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly cookie: SessionCookie,
    private readonly flashes: OneTimeFlashStore,
  ) {}

  @Get()
  @RequirePageScope('admin')
  async show(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const token = this.cookie.read(request);
    const link = token ? await this.flashes.take<NewMemberLink>(FLASH, token) : null;
    await this.page(session, request, reply, 200, { link });
  }

  @Post()
  @RequirePageScope('admin')
  @UseGuards(CsrfGuard)
  async create(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const token = this.cookie.read(request);
    if (!token) throw signInRequired();
    const form = createForm.safeParse(request.body ?? {});
    if (!form.success) return this.page(session, request, reply, 422, { errors: zodErrors(form.error, LABELS) });
    try {
      const created = await this.commands.execute(
        new CreateMemberCommand({ accountId: session.accountId, email: form.data.email, role: form.data.role }),
      );
      await this.flashes.put(FLASH, token, {
        email: created.email,
        path: `/password/reset?token=${created.resetToken}`,
        expiresAt: created.resetExpiresAt,
      } satisfies NewMemberLink);
    } catch (error) {
      return this.refused(error, session, request, reply);
    }
    redirect(reply, PATH);
  }

  @Post(':userId/role')
  @RequirePageScope('admin')
  @UseGuards(CsrfGuard)
  async changeRole(
    @CurrentSession() session: Session,
    @Param('userId') userId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const form = roleForm.safeParse(request.body ?? {});
    if (!form.success) return this.page(session, request, reply, 422, { errors: zodErrors(form.error, LABELS) });
    try {
      await this.commands.execute(
        new ChangeUserRoleCommand({ accountId: session.accountId, userId: this.userId(userId), role: form.data.role }),
      );
    } catch (error) {
      return this.refused(error, session, request, reply);
    }
    redirect(reply, PATH);
  }

  @Post(':userId/remove')
  @RequirePageScope('admin')
  @UseGuards(CsrfGuard)
  async remove(
    @CurrentSession() session: Session,
    @Param('userId') userId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    try {
      await this.commands.execute(new RemoveUserCommand({ accountId: session.accountId, userId: this.userId(userId) }));
    } catch (error) {
      return this.refused(error, session, request, reply);
    }
    redirect(reply, PATH);
  }

  /** An id that is not one is simply nobody (404 from the command, like another account's user). */
  private userId(raw: string): string {
    return USER_ID.test(raw) ? raw : 'usr_none';
  }

  private async refused(error: unknown, session: Session, request: FastifyRequest, reply: FastifyReply) {
    const errors = formErrors(error, LABELS);
    if (!errors) throw error;
    // formErrors answered: a domain error. The last admin is a conflict (409), the rest 422.
    const status = (error as AppError).kind === 'conflict' ? 409 : 422;
    return this.page(session, request, reply, status, { errors });
  }

  private async page(
    session: Session,
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    notice: { errors?: string[]; link?: NewMemberLink | null },
  ): Promise<void> {
    const users = await this.queries.execute(new ListAccountUsersQuery(session.accountId));
    sendPage(reply, status, usersPage(session, csrfTokenFor(request, reply), users, notice));
  }
}
