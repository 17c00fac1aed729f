import { Controller, Get, Header, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SCOPES } from '#access';
import { Operation } from '#http';
import { OAuthServer } from './oauth-server.js';
import { OAUTH_ROUTES } from './oauth-settings.js';

/**
 * RFC 8414 authorization server metadata. oidc-provider publishes OpenID Connect discovery
 * only (/.well-known/openid-configuration, not served here); this document says the same
 * things about the same configuration, for OAuth 2.0 clients.
 */
const strings = z.array(z.string());
const metadataSchema = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    jwks_uri: z.string(),
    scopes_supported: strings,
    response_types_supported: strings,
    response_modes_supported: strings,
    grant_types_supported: strings,
    token_endpoint_auth_methods_supported: strings,
    revocation_endpoint_auth_methods_supported: strings,
    code_challenge_methods_supported: strings,
    authorization_response_iss_parameter_supported: z.boolean(),
  })
  .meta({ id: 'OAuthAuthorizationServerMetadata' });

@Controller('.well-known')
export class OAuthMetadataController {
  constructor(private readonly server: OAuthServer) {}

  @Get('oauth-authorization-server')
  @Header('cache-control', 'public, max-age=300')
  @Operation({
    operationId: 'oauthMetadata',
    summary: 'Authorization server metadata (RFC 8414)',
    description:
      'The endpoints, scopes, grant types and client authentication methods of the OAuth 2.0 server. Public.',
    tags: ['oauth'],
    responses: { 200: { description: 'The metadata.', schema: metadataSchema } },
  })
  metadata(@Req() request: FastifyRequest): Record<string, unknown> {
    const issuer = this.server.issuerFor(request);
    const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
    return {
      issuer,
      authorization_endpoint: `${issuer}${OAUTH_ROUTES.authorization}`,
      token_endpoint: `${issuer}${OAUTH_ROUTES.token}`,
      revocation_endpoint: `${issuer}${OAUTH_ROUTES.revocation}`,
      jwks_uri: `${issuer}${OAUTH_ROUTES.jwks}`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: authMethods,
      revocation_endpoint_auth_methods_supported: authMethods,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    };
  }
}
