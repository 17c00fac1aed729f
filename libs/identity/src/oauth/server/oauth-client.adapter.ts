import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ActiveOAuthClient } from '../clients/oauth-client-lookup.js';
import { hashClientSecret } from '../clients/oauth-client.events.js';
import type { OidcAdapter } from './oauth-storage.js';

/** The client metadata property that says whether a client must use PKCE (`required`, `optional`). */
export const PKCE_METADATA = 'svc_pkce';

/** What OAuthClientAdapter reads of the request being handled (oidc-provider's `ctx`). */
export interface ClientAuthRequest {
  headers: { authorization?: string };
  oidc?: { params?: Record<string, unknown> };
}

/** Finds a client as its stream says now (OAuthClientLookup). */
export type FindActiveClient = (clientId: string) => Promise<ActiveOAuthClient | null>;

/**
 * oidc-provider's Client model through its documented adapter (`find`), read from the clients'
 * event streams (no copy to keep in step). Only the SHA-256 of a secret is stored, and the
 * provider compares the presented secret with the `client_secret` the adapter returns, so the
 * adapter checks the secret presented in the request being handled (the provider's documented
 * `Provider.ctx`) against the hash and returns it as the client's secret only when it matches;
 * otherwise a random value of this process, which no request can present. The provider's own
 * comparison then decides, on its own parsing of the request: a secret is accepted only when it
 * matches the hash, whatever either side's parsing (ADR 0091). Nothing else reads a client's
 * secret: client_secret_jwt and HS* signing are not enabled.
 */
export class OAuthClientAdapter implements OidcAdapter {
  private readonly unmatchable = randomBytes(32).toString('base64url');

  constructor(
    private readonly findClient: FindActiveClient,
    private readonly currentRequest: () => ClientAuthRequest | undefined,
  ) {}

  async find(id: string): Promise<Record<string, unknown> | undefined> {
    const client = await this.findClient(id);
    if (!client) return undefined;
    return {
      client_id: client.clientId,
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      [PKCE_METADATA]: client.pkce,
      ...(client.clientType === 'public' || !client.secretHash
        ? { token_endpoint_auth_method: 'none' }
        : { token_endpoint_auth_method: 'client_secret_basic', client_secret: this.secretFor(client) }),
    };
  }

  private secretFor(client: ActiveOAuthClient): string {
    const request = this.currentRequest();
    const presented = request ? presentedClientSecret(request, client.clientId) : undefined;
    return presented !== undefined && matchesSecretHash(client.secretHash, presented) ? presented : this.unmatchable;
  }

  upsert(): Promise<void> {
    return Promise.reject(new Error('OAuth clients are registered through their own commands'));
  }
  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  consume(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return Promise.resolve();
  }
  revokeByGrantId(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The secret a request presents for a client: `client_secret` in the body (client_secret_post),
 * or the password of HTTP Basic whose user is that client (RFC 6749 §2.3.1: each part
 * form-urlencoded). Undefined when there is none, or it is for another client.
 */
export function presentedClientSecret(request: ClientAuthRequest, clientId: string): string | undefined {
  const posted = request.oidc?.params?.client_secret;
  if (typeof posted === 'string' && posted) return posted;
  const parts = request.headers.authorization?.split(' ');
  if (parts?.length !== 2 || parts[0]!.toLowerCase() !== 'basic') return undefined;
  const basic = Buffer.from(parts[1]!, 'base64').toString('utf8');
  const colon = basic.indexOf(':');
  if (colon === -1) return undefined;
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, '%20'));
    return decode(basic.slice(0, colon)) === clientId ? decode(basic.slice(colon + 1)) || undefined : undefined;
  } catch {
    return undefined;
  }
}

function matchesSecretHash(storedHash: string | null | undefined, presented: string): boolean {
  if (!storedHash) return false;
  const a = Buffer.from(storedHash, 'hex');
  const b = Buffer.from(hashClientSecret(presented), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
