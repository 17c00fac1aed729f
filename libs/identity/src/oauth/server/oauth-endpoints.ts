import { z } from 'zod';
import type { OperationSpec } from '#http';
import { OAUTH_ROUTES } from './oauth-settings.js';

/**
 * The routes oidc-provider answers, each once: OAuthServer mounts exactly these on Fastify and
 * documents exactly these in the OpenAPI document, so the two cannot part. `door` is the
 * per-address budget it counts against (OAuthThrottle).
 */
export interface OAuthEndpoint {
  method: 'GET' | 'POST';
  url: string;
  door?: 'token' | 'authorization';
  spec: OperationSpec;
}

const TAGS = ['oauth'];
const FORM = 'application/x-www-form-urlencoded';

// Unknown parameters are ignored, not refused (RFC 6749 §3.1, §3.2): loose objects.
const authorizationParams = z.looseObject({
  client_id: z.string().describe('The registered client.'),
  redirect_uri: z.string().describe('One of the client’s registered redirect URIs, exactly.'),
  response_type: z.literal('code'),
  scope: z
    .string()
    .describe('Space-separated scopes: read, write, admin, agents:run, agents:configure, repositories:manage.'),
  state: z.string().optional().describe('Returned unchanged with the code.'),
  code_challenge: z.string().describe('PKCE (required for every client): BASE64URL(SHA-256(code_verifier)).'),
  code_challenge_method: z.literal('S256'),
  resource: z.string().optional().describe('RFC 8707: this service’s /v1 (the default and only resource).'),
});

const tokenRequest = z
  .looseObject({
    grant_type: z.enum(['authorization_code', 'refresh_token']),
    code: z.string().optional().describe('authorization_code: the code from the redirect.'),
    redirect_uri: z.string().optional().describe('authorization_code: the redirect_uri of the authorization.'),
    code_verifier: z.string().optional().describe('authorization_code: the PKCE verifier.'),
    refresh_token: z.string().optional().describe('refresh_token: the refresh token (rotated on use).'),
    client_id: z.string().optional().describe('Public clients, or client_secret_post.'),
    client_secret: z.string().optional().describe('client_secret_post (or send HTTP Basic).'),
    resource: z.string().optional(),
    scope: z.string().optional().describe('refresh_token: a subset of the granted scopes.'),
  })
  .meta({ id: 'OAuthTokenRequest' });

const tokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Seconds (3600).'),
    refresh_token: z.string().optional(),
    scope: z.string(),
  })
  .meta({ id: 'OAuthTokenResponse' });

/** RFC 6749 §5.2: the token and revocation endpoints' errors. */
const oauthError = z
  .looseObject({
    error: z
      .string()
      .describe(
        'invalid_request, invalid_client, invalid_grant, unsupported_grant_type, invalid_scope, invalid_target, ...',
      ),
    error_description: z.string().optional(),
  })
  .meta({ id: 'OAuthError' });

const HTML_ERROR = {
  description: 'An error that cannot go back to the client (unknown client or redirect_uri): an HTML page.',
  contentType: 'text/html',
};
const REDIRECT = {
  description:
    'To the sign-in and consent page, or back to the client’s redirect_uri with `code` and `state` (or `error`).',
  headers: { Location: { description: 'Where the user agent goes next.' } },
};
const LIMITED = { description: 'RATE_LIMIT_EXCEEDED: too many requests from this address (Retry-After).' };

const authorize = (method: 'GET' | 'POST'): OperationSpec => ({
  operationId: method === 'GET' ? 'oauthAuthorize' : 'oauthAuthorizePost',
  summary: method === 'GET' ? 'Authorization endpoint' : 'Authorization endpoint (form post)',
  description:
    'OAuth 2.0 authorization code flow with PKCE (S256, required). The user signs in and approves on this service’s consent page; the user agent then returns to redirect_uri with code and state.',
  tags: TAGS,
  ...(method === 'GET'
    ? { query: authorizationParams }
    : { documentedBody: { required: true, content: { [FORM]: authorizationParams } } }),
  ownBodyParser: true,
  responses: { 303: REDIRECT, 400: HTML_ERROR, 429: LIMITED },
});

const resume = (method: 'GET' | 'POST'): OperationSpec => ({
  operationId: method === 'GET' ? 'oauthAuthorizeResume' : 'oauthAuthorizeResumePost',
  summary: 'Authorization endpoint: resume after sign-in and consent',
  description:
    'Where the consent page sends the user agent back: finishes the authorization and redirects to the client’s redirect_uri with the code (or the error).',
  tags: TAGS,
  params: z.object({ uid: z.string().describe('The interaction.') }),
  ownBodyParser: true,
  responses: { 303: REDIRECT, 400: HTML_ERROR, 429: LIMITED },
});

export const OAUTH_ENDPOINTS: readonly OAuthEndpoint[] = [
  { method: 'GET', url: OAUTH_ROUTES.authorization, door: 'authorization', spec: authorize('GET') },
  { method: 'POST', url: OAUTH_ROUTES.authorization, door: 'authorization', spec: authorize('POST') },
  { method: 'GET', url: `${OAUTH_ROUTES.authorization}/:uid`, door: 'authorization', spec: resume('GET') },
  { method: 'POST', url: `${OAUTH_ROUTES.authorization}/:uid`, door: 'authorization', spec: resume('POST') },
  {
    method: 'POST',
    url: OAUTH_ROUTES.token,
    door: 'token',
    spec: {
      operationId: 'oauthToken',
      summary: 'Token endpoint',
      description:
        'Exchanges an authorization code (with its PKCE verifier) or a refresh token for an access token. Confidential clients authenticate with HTTP Basic (or client_secret_post); refresh tokens rotate on every use.',
      tags: TAGS,
      documentedBody: { required: true, content: { [FORM]: tokenRequest } },
      ownBodyParser: true,
      responses: {
        200: { description: 'The tokens.', schema: tokenResponse },
        400: {
          description: 'invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, ...',
          schema: oauthError,
        },
        401: { description: 'invalid_client: the client failed to authenticate.', schema: oauthError },
        429: LIMITED,
      },
      security: [{}, 'clientBasic'],
    },
  },
  {
    method: 'POST',
    url: OAUTH_ROUTES.revocation,
    door: 'token',
    spec: {
      operationId: 'oauthRevoke',
      summary: 'Revocation endpoint (RFC 7009)',
      description:
        'Revokes an access or refresh token of the calling client (revoking a refresh token ends its grant). A token of another client, or an unknown one, changes nothing and still answers 200.',
      tags: TAGS,
      documentedBody: {
        required: true,
        content: {
          [FORM]: z.looseObject({
            token: z.string(),
            token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
            client_id: z.string().optional(),
            client_secret: z.string().optional(),
          }),
        },
      },
      ownBodyParser: true,
      responses: {
        200: { description: 'Revoked (or nothing to revoke); no body.' },
        400: { description: 'invalid_request, unsupported_token_type.', schema: oauthError },
        401: { description: 'invalid_client: the client failed to authenticate.', schema: oauthError },
        429: LIMITED,
      },
      security: [{}, 'clientBasic'],
    },
  },
  {
    method: 'GET',
    url: OAUTH_ROUTES.jwks,
    spec: {
      operationId: 'oauthJwks',
      summary: 'The authorization server’s public keys (JWKS)',
      description: 'The public half of the signing key (ES256). Public.',
      tags: TAGS,
      ownBodyParser: true,
      responses: {
        200: {
          description: 'The key set.',
          schema: z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string().optional() })) }),
          contentType: 'application/jwk-set+json',
        },
      },
    },
  },
];
