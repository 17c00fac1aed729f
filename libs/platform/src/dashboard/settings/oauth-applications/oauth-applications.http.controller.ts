import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor } from '#http';
import { AppError, Errors } from '#kernel';
import {
  BrowserErrorFilter,
  CsrfGuard,
  CurrentSession,
  DeleteOAuthClientCommand,
  ListOAuthClientsQuery,
  OneTimeFlashStore,
  redirect,
  RegisterOAuthClientCommand,
  RotateOAuthClientSecretCommand,
  sendPage,
  type Session,
  SessionCookie,
  SetOAuthClientPkceCommand,
  SignedInGuard,
  signInRequired,
} from '#identity';
import {
  deleteOAuthApplicationPage,
  OAUTH_APPLICATIONS_PATH,
  OAUTH_CREDENTIALS_PATH,
  oauthApplicationsPage,
  oauthCredentialsGonePage,
  oauthCredentialsPage,
  type ShownCredentials,
} from './oauth-applications.page.js';

/** The flash kind of a client's credentials, shown once on GET …/credentials. */
const CREDENTIALS_FLASH = 'oauth-credentials';

function adminsOnly(session: Session): void {
  if (session.role !== 'admin')
    throw new AppError('forbidden', 'ADMIN_REQUIRED', 'Only admins of this account can change its OAuth applications.');
}

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Settings → OAuth applications: list, register (credentials shown once),
 * rotate a secret (shown once), delete after a confirmation page. Forms only, CSRF on each.
 * Register and rotate answer 303 to …/credentials (Post/Redirect/Get): a
 * reload there neither registers again nor rotates again, and shows the secret no more.
 */
@Controller('dashboard/settings/oauth-applications')
@UseFilters(BrowserErrorFilter)
@UseGuards(SignedInGuard)
export class OAuthApplicationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly cookie: SessionCookie,
    private readonly flashes: OneTimeFlashStore,
  ) {}

  @Get()
  async list(
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const clients = await this.queries.execute(new ListOAuthClientsQuery(session.accountId));
    const query = request.query as Record<string, unknown>;
    const notice =
      query.deleted === '1'
        ? 'The application was deleted.'
        : query.pkce === 'required'
          ? 'The application must now use PKCE.'
          : query.pkce === 'optional'
            ? 'The application may now skip PKCE.'
            : undefined;
    sendPage(reply, 200, oauthApplicationsPage(session, csrfTokenFor(request, reply), clients, {}, notice));
  }

  @Post()
  @UseGuards(CsrfGuard)
  async register(
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    adminsOnly(session);
    const name = field(request.body, 'name');
    const redirectUrisText = field(request.body, 'redirect_uris');
    const clientType = field(request.body, 'client_type') === 'public' ? 'public' : 'confidential';
    // Unticked (absent): required. Ticked with a public client: the decider refuses it.
    const pkceOptional = field(request.body, 'pkce') === 'optional';
    const redirectUris = redirectUrisText
      .split(/\r?\n/)
      .map((u) => u.trim())
      .filter(Boolean);
    try {
      const client = await this.commands.execute(
        new RegisterOAuthClientCommand({
          accountId: session.accountId,
          name,
          redirectUris,
          clientType,
          pkce: pkceOptional ? 'optional' : 'required',
          by: session.userId,
        }),
      );
      await this.showOnce(request, reply, {
        clientId: client.clientId,
        ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
        name: client.name,
        rotated: false,
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'VALIDATION_FAILED') throw error;
      const details = (error.extra.details as Array<{ path: string; message: string }> | undefined) ?? [];
      const problems = details.map(
        (d) =>
          `${d.path.startsWith('redirect_uris') ? 'Redirect URIs' : d.path === 'name' ? 'Name' : d.path === 'pkce' ? 'PKCE' : 'Client type'}: ${d.message}`,
      );
      const clients = await this.queries.execute(new ListOAuthClientsQuery(session.accountId));
      sendPage(
        reply,
        422,
        oauthApplicationsPage(session, csrfTokenFor(request, reply), clients, {
          name,
          redirectUris: redirectUrisText,
          clientType,
          pkceOptional,
          problems,
        }),
      );
    }
  }

  // (Not "rotate-secret": route paths are logged at start, and the logs never say "secret".)
  @Post(':clientId/rotate')
  @UseGuards(CsrfGuard)
  async rotate(
    @Param('clientId') clientId: string,
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    adminsOnly(session);
    const client = await this.find(session, clientId);
    const rotated = await this.commands.execute(
      new RotateOAuthClientSecretCommand({ accountId: session.accountId, clientId, by: session.userId }),
    );
    await this.showOnce(request, reply, {
      clientId: rotated.clientId,
      clientSecret: rotated.clientSecret,
      name: client.name,
      rotated: true,
    });
  }

  @Get('credentials')
  async credentials(
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const sessionToken = this.cookie.read(request);
    const shown = sessionToken ? await this.flashes.take<ShownCredentials>(CREDENTIALS_FLASH, sessionToken) : null;
    const csrfToken = csrfTokenFor(request, reply);
    if (!shown) sendPage(reply, 404, oauthCredentialsGonePage(session, csrfToken));
    else sendPage(reply, 200, oauthCredentialsPage(session, csrfToken, shown));
  }

  @Post(':clientId/pkce')
  @UseGuards(CsrfGuard)
  async setPkce(
    @Param('clientId') clientId: string,
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    adminsOnly(session);
    const pkce = field(request.body, 'pkce');
    if (pkce !== 'required' && pkce !== 'optional')
      throw Errors.validation([{ path: 'pkce', message: 'must be required or optional' }]);
    await this.find(session, clientId);
    await this.commands.execute(
      new SetOAuthClientPkceCommand({ accountId: session.accountId, clientId, pkce, by: session.userId }),
    );
    redirect(reply, `${OAUTH_APPLICATIONS_PATH}?pkce=${pkce}`);
  }

  @Get(':clientId/delete')
  async confirmDelete(
    @Param('clientId') clientId: string,
    @CurrentSession() session: Session,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    adminsOnly(session);
    const client = await this.find(session, clientId);
    sendPage(reply, 200, deleteOAuthApplicationPage(session, csrfTokenFor(request, reply), client));
  }

  @Post(':clientId/delete')
  @UseGuards(CsrfGuard)
  async delete(
    @Param('clientId') clientId: string,
    @CurrentSession() session: Session,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    adminsOnly(session);
    await this.commands.execute(
      new DeleteOAuthClientCommand({ accountId: session.accountId, clientId, by: session.userId }),
    );
    redirect(reply, `${OAUTH_APPLICATIONS_PATH}?deleted=1`);
  }

  /** Puts the credentials in this session's one-time flash and sends the browser to read them. */
  private async showOnce(request: FastifyRequest, reply: FastifyReply, shown: ShownCredentials): Promise<void> {
    const sessionToken = this.cookie.read(request);
    if (!sessionToken) throw signInRequired();
    await this.flashes.put(CREDENTIALS_FLASH, sessionToken, shown);
    redirect(reply, OAUTH_CREDENTIALS_PATH);
  }

  /** Another account's application is as unknown as a missing one (404). */
  private async find(session: Session, clientId: string) {
    const clients = await this.queries.execute(new ListOAuthClientsQuery(session.accountId));
    const client = clients.find((c) => c.id === clientId);
    if (!client) throw Errors.notFound('No such OAuth application.', 'OAUTH_CLIENT_NOT_FOUND');
    return client;
  }
}
