import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ProjectionsModule, ReadYourWrites } from '#projections';
import { SessionCookie } from '../web/session-cookie.js';
import { SignedInGuard } from '../web/signed-in.guard.js';
import { DeleteOAuthClientHandler } from './clients/commands/delete-oauth-client/delete-oauth-client.handler.js';
import { RegisterOAuthClientHandler } from './clients/commands/register-oauth-client/register-oauth-client.handler.js';
import { SetOAuthClientPkceHandler } from './clients/commands/set-oauth-client-pkce/set-oauth-client-pkce.handler.js';
import { RotateOAuthClientSecretHandler } from './clients/commands/rotate-oauth-client-secret/rotate-oauth-client-secret.handler.js';
import { OAuthClientLookup } from './clients/oauth-client-lookup.js';
import { oauthClientsProjection } from './clients/oauth-clients.projection.js';
import { ListOAuthClientsHandler } from './clients/queries/list-oauth-clients/list-oauth-clients.handler.js';
import { OAuthConsentController } from './consent/oauth-consent.http.controller.js';
import { OAuthInteractions } from './consent/oauth-interactions.js';
import { OAuthAudit } from './grants/oauth-audit.js';
import { OAuthMetadataController } from './server/oauth-metadata.http.controller.js';
import { OAuthServer } from './server/oauth-server.js';
import { OAuthAuthorizationThrottleGuard, OAuthThrottle } from './server/oauth-throttle.js';
import { OAuthStorage } from './server/oauth-storage.js';
import { OAuthUsers } from './server/oauth-users.js';
import { OAuthAccessTokenResolver } from './tokens/oauth-access-token.resolver.js';
import { OAuthRevocationWatch } from './tokens/oauth-revocation.watch.js';

/**
 * OAuth 2.0 (ADR 0066): client registration (events, CLI, and
 * platform's dashboard page Settings → OAuth applications through the buses), the authorization server (oidc-provider under
 * Fastify, storage on the document store, our consent page), access tokens on /v1 (a bearer
 * token resolver) and the grants' audit events. The sign-in pages come from IdentityWebModule.
 */
@Module({
  imports: [CqrsModule.forRoot(), ProjectionsModule.forFeature([oauthClientsProjection])],
  controllers: [OAuthConsentController, OAuthMetadataController],
  providers: [
    ReadYourWrites,
    SessionCookie,
    SignedInGuard,
    OAuthClientLookup,
    RegisterOAuthClientHandler,
    RotateOAuthClientSecretHandler,
    SetOAuthClientPkceHandler,
    DeleteOAuthClientHandler,
    ListOAuthClientsHandler,
    OAuthStorage,
    OAuthUsers,
    OAuthAudit,
    OAuthServer,
    OAuthThrottle,
    OAuthAuthorizationThrottleGuard,
    OAuthInteractions,
    OAuthAccessTokenResolver,
    OAuthRevocationWatch,
  ],
  exports: [OAuthStorage, OAuthAccessTokenResolver],
})
export class OAuthModule {}
