import { Inject, Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Configuration, KoaContextWithOIDC, Provider } from 'oidc-provider';
import { BearerTokenResolvers, SCOPES } from '#access';
import { APP_CONFIG, type AppConfig, BoundedCache, type LoadedSecretBox, SECRET_BOX } from '#kernel';
import { OpenApiService, publicBaseUrl } from '#http';
import { OAuthClientLookup } from '../clients/oauth-client-lookup.js';
import { OAuthAudit } from '../grants/oauth-audit.js';
import { OAuthAccessTokenResolver } from '../tokens/oauth-access-token.resolver.js';
import { oauthErrorPage } from '../consent/oauth-error.page.js';
import { authorizationParamsProblem } from './oauth-authorization-params.js';
import { oauthKeys } from './oauth-keys.js';
import { OAuthThrottle } from './oauth-throttle.js';
import { OAuthStorage } from './oauth-storage.js';
import { OAuthClientAdapter, PKCE_METADATA } from './oauth-client.adapter.js';
import { OAuthUsers } from './oauth-users.js';
import { noteConsumedFound, recordAudit, watchForAudit } from './oauth-audit.middleware.js';
import { answerLostRedemption } from './oauth-redemption.js';
import { OAUTH_ENDPOINTS } from './oauth-endpoints.js';
import { interactionPath, OAUTH_ROUTES, OAUTH_TTL, resourceOf } from './oauth-settings.js';

/** At most this many issuers (only without SVC_PUBLIC_URL, where the issuer is the request's host). */
const MAX_ISSUERS = 8;

/**
 * The OAuth 2.0 authorization server: oidc-provider (certified, maintained; ADR 0066), a Koa
 * app, mounted under Fastify for its own paths, with its storage on the document store
 * (OAuthStorage), its keys derived from the secrets key, and our sign-in and consent pages as
 * its interactions. The api only: the CLI and worker never build it. Only the provider's
 * documented extension points are used (configuration, adapters, `Provider.ctx`, events,
 * middleware: ADR 0091); oidc-provider-extension-points.int.spec pins the ones we rely on.
 */
@Injectable()
export class OAuthServer implements OnModuleInit {
  private readonly logger = new Logger('OAuthServer');
  private readonly providers = new BoundedCache<string, Promise<Provider>>({ maxEntries: MAX_ISSUERS });
  /** Koa composes its middleware in callback(): once per provider, not per request. */
  private readonly callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRET_BOX) private readonly secrets: LoadedSecretBox,
    private readonly storage: OAuthStorage,
    private readonly clients: OAuthClientLookup,
    private readonly users: OAuthUsers,
    private readonly audit: OAuthAudit,
    private readonly resolvers: BearerTokenResolvers,
    private readonly tokens: OAuthAccessTokenResolver,
    private readonly throttle: OAuthThrottle,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
    @Optional() private readonly openapi?: OpenApiService,
  ) {}

  onModuleInit(): void {
    this.resolvers.register(this.tokens);
    const fastify = this.adapterHost?.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    // An encapsulated context: its routes get the request stream unread (oidc-provider parses
    // its own bodies), while the rest of the app keeps Nest's parsers.
    void fastify.register((scope: FastifyInstance, _options: unknown, done: (error?: Error) => void) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, next) => next(null, undefined));
      const handler = (request: FastifyRequest, reply: FastifyReply) => this.handle(request, reply);
      // The authorization endpoint: anyone can call it and each new request makes an interaction
      // document, so it is limited per client address on a budget of its own (the
      // `authorization` door); the endpoints that take a client secret on the `token` door.
      const doors = { authorization: this.throttle.onAuthorizationRequest, token: this.throttle.onRequest };
      for (const endpoint of OAUTH_ENDPOINTS)
        scope.route({
          method: endpoint.method,
          url: endpoint.url,
          ...(endpoint.door ? { onRequest: doors[endpoint.door] } : {}),
          handler,
        });
      done();
    });
    // The same table documents them (they are outside Nest's router, so discovery cannot).
    this.openapi?.addRoutes(
      OAUTH_ENDPOINTS.map((e) => ({ method: e.method, path: e.url, spec: e.spec, handlerName: `OAuth_${e.url}` })),
    );
  }

  /** The issuer for a request: SVC_PUBLIC_URL, or (test mode) the request's trusted host. */
  issuerFor(request: FastifyRequest): string {
    return publicBaseUrl(request, this.config);
  }

  provider(issuer: string): Promise<Provider> {
    let provider = this.providers.get(issuer);
    if (!provider) {
      provider = this.build(issuer);
      this.providers.set(issuer, provider);
    }
    return provider;
  }

  private async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const provider = await this.provider(this.issuerFor(request));
    let callback = this.callbacks.get(provider);
    if (!callback) this.callbacks.set(provider, (callback = provider.callback()));
    reply.hijack();
    await callback(request.raw, reply.raw);
  }

  private async build(issuer: string): Promise<Provider> {
    const { default: Provider, interactionPolicy, errors } = await import('oidc-provider');
    const { cookieKeys, jwks } = oauthKeys(this.secrets.box);
    const resource = resourceOf(issuer);
    const scopes = SCOPES.join(' ');
    const policy = interactionPolicy.base();
    // Every authorization goes through the consent page (no silent re-approval from an earlier
    // grant): the page is where the signed-in user and the scopes they hold are checked.
    policy
      .get('consent')!
      .checks.add(
        new interactionPolicy.Check('svc_consent', 'every authorization is approved on the consent page', (ctx) =>
          ctx.oidc.result?.consent?.grantId
            ? interactionPolicy.Check.NO_NEED_TO_PROMPT
            : interactionPolicy.Check.REQUEST_PROMPT,
        ),
      );
    const configuration: Configuration = {
      // Client authentication against the stored secret hash happens in the Client adapter, and
      // reuse is heard from the storage; both read the request being handled through the
      // provider's documented AsyncLocalStorage context (`Provider.ctx`).
      adapter: (name: string) =>
        name === 'Client'
          ? new OAuthClientAdapter(
              (id) => this.clients.active(id),
              () => Provider.ctx,
            )
          : this.storage.adapterFor(name, {
              consumedAlready: (model, grantId) =>
                answerLostRedemption(Provider.ctx, errors.InvalidGrant, model, grantId),
              consumedFound: (model) => noteConsumedFound(Provider.ctx, model),
            }),
      clients: [],
      findAccount: async (_ctx, sub) => {
        const user = await this.users.byId(sub);
        return user ? { accountId: user.userId, claims: () => ({ sub: user.userId }) } : undefined;
      },
      interactions: { policy, url: (_ctx, interaction) => interactionPath(interaction.uid) },
      cookies: {
        keys: cookieKeys,
        long: { httpOnly: true, sameSite: 'lax', signed: true },
        short: { httpOnly: true, sameSite: 'lax', signed: true },
      },
      jwks: jwks as unknown as Configuration['jwks'],
      routes: OAUTH_ROUTES,
      // The six scopes are the resource server's (below), not OpenID Connect scopes.
      scopes: [],
      responseTypes: ['code'],
      // Every client by default, confidential ones included (OAuth 2.1, RFC 9700 §2.1.1): a code
      // taken from the redirect is useless without the verifier. S256 only (the provider refuses
      // `plain`). A confidential client registered with `pkce: optional` may leave it out (the
      // spec's flow names no PKCE); a client without a secret never (ADR 0075).
      pkce: {
        required: (_ctx, client) =>
          client.clientAuthMethod === 'none' || client.metadata()[PKCE_METADATA] !== 'optional',
      },
      // The setting rides in the client metadata from OAuthClientAdapter; anything but `optional`
      // reads as `required`.
      extraClientMetadata: {
        properties: [PKCE_METADATA],
        validator: (_ctx, key, value, metadata) => {
          if (key === PKCE_METADATA && value !== 'optional') metadata[PKCE_METADATA] = 'required';
        },
      },
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        // The one signing key is ES256 (no ID tokens are issued: no `openid` scope).
        id_token_signed_response_alg: 'ES256',
      },
      features: {
        devInteractions: { enabled: false },
        // RFC 7009 §2.1: a client revokes only its own tokens (another's request changes nothing).
        revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
        userinfo: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget();
            return {
              scope: scopes,
              audience: resource,
              accessTokenTTL: OAUTH_TTL.AccessToken,
              accessTokenFormat: 'opaque',
            };
          },
        },
      },
      ttl: { ...OAUTH_TTL },
      rotateRefreshToken: true,
      // Tokens live their own lifetimes: not bound to the provider's browser session (by default
      // a later authorization of the same client in the same browser would end the earlier
      // grant's refresh tokens).
      expiresWithSession: () => false,
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      loadExistingGrant: async (ctx) => {
        const grantId = ctx.oidc.result?.consent?.grantId;
        return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
      },
      // The platform account a token acts for rides in the token's stored payload (/v1 reads it).
      extraTokenClaims: async (_ctx, token) => {
        if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
        const user = await this.users.byId(token.accountId);
        return user ? { svc_account: user.accountId } : undefined;
      },
      renderError: (ctx, out) =>
        renderErrorPage(ctx, ctx.status >= 400 ? ctx.status : 400, out.error, out.error_description),
    };
    const provider = new Provider(issuer, configuration);
    provider.proxy = Boolean(this.config.trustedProxies);
    // Before the provider reads anything: an authorization request with a parameter over its
    // bound is refused (400 invalid_request, the provider's own error page) and writes nothing.
    provider.use(async (ctx, next) => {
      const problem =
        ctx.method === 'GET' && ctx.path === OAUTH_ROUTES.authorization
          ? authorizationParamsProblem(ctx.query)
          : undefined;
      if (problem) renderErrorPage(ctx, 400, 'invalid_request', problem);
      else await next();
    });
    watchForAudit(provider);
    provider.use((ctx, next) => recordAudit(ctx as KoaContextWithOIDC, next, this.audit, this.logger));
    return provider;
  }
}

/** An authorization error that cannot go back to the client: our page. */
function renderErrorPage(
  ctx: { status: number; body: unknown; set(headers: Record<string, string>): void },
  status: number,
  error: string,
  description: string | undefined,
): void {
  const page = oauthErrorPage(error, description);
  ctx.status = status;
  ctx.set(page.headers);
  ctx.body = page.body;
}
