import { Controller, Get, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateApiKeyCommand, ListApiKeysQuery } from '#access';
import { csrfTokenFor } from '#http';
import {
  BrowserErrorFilter,
  CsrfGuard,
  CurrentSession,
  formErrors,
  redirect,
  scopesOfRole,
  sendPage,
  type Session,
  SessionCookie,
  SignedInGuard,
  signInRequired,
  zodErrors,
} from '#identity';
import { API_KEYS_PAGE_SIZE } from '../list-api-keys/list-api-keys.http.controller.js';
import { apiKeysPage, type NewKeyForm } from '../list-api-keys/api-keys.page.js';
import { NewKeyFlashStore } from '../new-key-flash.store.js';
import { CREATE_API_KEY_LABELS, createApiKeyForm } from './create-api-key.form.js';
import { NEW_KEY_PAGE_CSP, newKeyGonePage, newKeyPage } from './new-key.page.js';

export const NEW_KEY_PATH = '/dashboard/settings/api-keys/new-key';

/**
 * POST /dashboard/settings/api-keys: "Create key", the same command as POST /v1/api-keys with the
 * signed-in user as creator and the scopes their role holds (so a member cannot grant `admin`).
 * 303 to GET …/new-key, the one page that shows the value (taken from a server-side flash).
 */
@Controller('dashboard/settings/api-keys')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class CreateApiKeyPageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly cookie: SessionCookie,
    private readonly flashes: NewKeyFlashStore,
  ) {}

  @Post()
  @UseGuards(CsrfGuard)
  async create(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const sessionToken = this.cookie.read(request);
    if (!sessionToken) throw signInRequired();
    const form = createApiKeyForm.safeParse(request.body ?? {});
    if (!form.success) return this.again(session, request, reply, zodErrors(form.error, CREATE_API_KEY_LABELS));
    let created;
    try {
      created = await this.commands.execute(
        new CreateApiKeyCommand({
          accountId: session.accountId,
          name: form.data.description,
          scopes: form.data.scopes,
          surface: 'platform',
          // The user is the creator (created_by: usr_…), holding what their role holds.
          creator: { keyId: session.userId, accountId: session.accountId, scopes: scopesOfRole(session.role) },
        }),
      );
    } catch (error) {
      const errors = formErrors(error, CREATE_API_KEY_LABELS);
      if (!errors) throw error;
      return this.again(session, request, reply, errors);
    }
    await this.flashes.put(sessionToken, { keyId: created.id, name: created.name, value: created.key });
    redirect(reply, NEW_KEY_PATH);
  }

  @Get('new-key')
  async newKey(@CurrentSession() session: Session, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const sessionToken = this.cookie.read(request);
    const key = sessionToken ? await this.flashes.take(sessionToken) : null;
    const csrfToken = csrfTokenFor(request, reply);
    if (!key) {
      sendPage(reply, 404, newKeyGonePage(session, csrfToken));
      return;
    }
    sendPage(reply, 200, newKeyPage(session, csrfToken, key), {
      'content-security-policy': NEW_KEY_PAGE_CSP,
    });
  }

  /** The form again, with what was typed and why it was refused (422). */
  private async again(session: Session, request: FastifyRequest, reply: FastifyReply, errors: string[]) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const scopes = body.scopes === undefined ? [] : ([] as unknown[]).concat(body.scopes);
    const form: NewKeyForm = {
      description: typeof body.description === 'string' ? body.description.slice(0, 100) : '',
      scopes: scopes.filter((s): s is string => typeof s === 'string'),
      errors,
    };
    const page = await this.queries.execute(new ListApiKeysQuery(session.accountId, API_KEYS_PAGE_SIZE));
    sendPage(
      reply,
      422,
      apiKeysPage({
        session,
        csrfToken: csrfTokenFor(request, reply),
        keys: page.data,
        nextCursor: page.next_cursor,
        form,
      }),
    );
  }
}
