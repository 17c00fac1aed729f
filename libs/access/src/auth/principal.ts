import type { KeyEnvironment } from '../keys/api-key-format.js';
import type { KeySurface } from '../api-keys/api-key.events.js';

/**
 * Who a request acts for, once its bearer credential is resolved. API keys now; OAuth access
 * tokens (a later issue) add their own variant and keep `id`, `accountId` and `scopes`.
 */
export interface ApiKeyPrincipal {
  kind: 'api_key';
  /** The credential's id (`key_…`): who created or revoked something. */
  id: string;
  keyId: string;
  accountId: string;
  scopes: readonly string[];
  surface: KeySurface;
  environment: KeyEnvironment;
}

export interface OAuthTokenPrincipal {
  kind: 'oauth_token';
  id: string;
  accountId: string;
  scopes: readonly string[];
  clientId: string;
}

export type Principal = ApiKeyPrincipal | OAuthTokenPrincipal;
