import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GetApiKeyQuery, RevokeApiKeyCommand } from '#access';
import { csrfTokenFor } from '#http';
import { Errors } from '#kernel';
import {
  BrowserErrorFilter,
  CsrfGuard,
  CurrentSession,
  redirect,
  RequirePageScope,
  scopesOfRole,
  sendPage,
  type Session,
  SignedInGuard,
} from '#identity';
import { revokeApiKeyPage } from './revoke-api-key.page.js';

/**
 * GET …/api-keys/{key_id}/revoke: the confirmation; POST: the same command as
 * DELETE /v1/api-keys/{key_id}, which like it needs `admin`. Another account's key, an unknown
 * or an already revoked one: 404.
 */
@Controller('dashboard/settings/api-keys')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class RevokeApiKeyPageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':key_id/revoke')
  @RequirePageScope('admin')
  async confirm(
    @CurrentSession() session: Session,
    @Param('key_id') keyId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const key = await this.queries.execute(new GetApiKeyQuery(session.accountId, keyId));
    if (key.revoked_at) throw Errors.notFound('No such API key.', 'KEY_NOT_FOUND');
    sendPage(reply, 200, revokeApiKeyPage(session, csrfTokenFor(request, reply), key));
  }

  @Post(':key_id/revoke')
  @UseGuards(CsrfGuard)
  @RequirePageScope('admin')
  async revoke(
    @CurrentSession() session: Session,
    @Param('key_id') keyId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.commands.execute(
      new RevokeApiKeyCommand({
        keyId,
        requester: { keyId: session.userId, accountId: session.accountId, scopes: scopesOfRole(session.role) },
      }),
    );
    redirect(reply, '/dashboard/settings/api-keys?revoked=1');
  }
}
