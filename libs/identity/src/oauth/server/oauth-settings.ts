/** Lifetimes. */
export const OAUTH_TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  RefreshToken: 30 * 86_400,
  /** The longest a chain of rotated refresh tokens can last. */
  Grant: 365 * 86_400,
  Interaction: 3600,
  Session: 8 * 3600,
} as const;

/** The paths oidc-provider answers itself; everything else (consent, metadata) is ours. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;

export const interactionPath = (uid: string) => `/oauth/interaction/${uid}`;

/** The protected resource every token is for: this service's /v1 (RFC 8707 resource indicator). */
export const resourceOf = (issuer: string) => `${issuer}/v1`;
