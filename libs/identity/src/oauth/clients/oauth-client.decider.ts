import { assertNever, type Decider, type ErrorDetail, Errors } from '#kernel';
import type { OAuthClientEvent, OAuthClientPkce, OAuthClientType } from './oauth-client.events.js';

export type OAuthClientCommand =
  | {
      type: 'RegisterOAuthClient';
      clientId: string;
      accountId: string;
      name: string;
      redirectUris: string[];
      clientType: OAuthClientType;
      /** Null exactly for a public client. */
      secretHash: string | null;
      pkce: OAuthClientPkce;
      by: string;
      now: Date;
    }
  | { type: 'RotateOAuthClientSecret'; accountId: string; secretHash: string; by: string; now: Date }
  | { type: 'SetOAuthClientPkce'; accountId: string; pkce: OAuthClientPkce; by: string; now: Date }
  | { type: 'DeleteOAuthClient'; accountId: string; by: string; now: Date };

export type OAuthClientState =
  | { status: 'absent' }
  | {
      status: 'active' | 'deleted';
      clientId: string;
      accountId: string;
      name: string;
      redirectUris: string[];
      clientType: OAuthClientType;
      secretHash: string | null;
      pkce: OAuthClientPkce;
      registeredAt: string;
    };

export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

/**
 * RFC 9700 §2.1 / RFC 8252 §8.3: an absolute https URL, or http on a loopback host (native and
 * local apps); no fragment (RFC 6749 §3.1.2), no user info, at most 2000 characters. Compared
 * exactly at /oauth/authorize, so no wildcards either.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length === 0 || uri.length > MAX_REDIRECT_URI_LENGTH)
    return `must be 1 to ${MAX_REDIRECT_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry user info';
  if (uri.includes('*')) return 'must not contain wildcards';
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && loopback) return undefined;
  return 'must be https (http only on localhost, 127.0.0.1 or [::1])';
}

function notFound() {
  return Errors.notFound('No such OAuth application.', 'OAUTH_CLIENT_NOT_FOUND');
}

export const oauthClientDecider: Decider<OAuthClientCommand, OAuthClientEvent, OAuthClientState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'OAuthClientRegistered': {
        const d = event.data;
        return {
          status: 'active',
          clientId: d.client_id,
          accountId: d.account_id,
          name: d.name,
          redirectUris: d.redirect_uris,
          clientType: d.client_type,
          secretHash: d.secret_hash,
          pkce: d.pkce ?? 'required',
          registeredAt: d.registered_at,
        };
      }
      case 'OAuthClientSecretRotated':
        return state.status === 'absent' ? state : { ...state, secretHash: event.data.secret_hash };
      case 'OAuthClientPkceChanged':
        return state.status === 'absent' ? state : { ...state, pkce: event.data.pkce };
      case 'OAuthClientDeleted':
        return state.status === 'absent' ? state : { ...state, status: 'deleted', secretHash: null };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterOAuthClient': {
        if (state.status !== 'absent')
          throw Errors.conflict('The OAuth application exists already.', 'OAUTH_CLIENT_EXISTS');
        const name = command.name.trim();
        const details: ErrorDetail[] = [];
        if (name.length < 1 || name.length > 100)
          details.push({ path: 'name', message: 'must be 1 to 100 characters' });
        if (command.redirectUris.length === 0)
          details.push({ path: 'redirect_uris', message: 'must name at least one redirect URI' });
        if (command.redirectUris.length > MAX_REDIRECT_URIS)
          details.push({ path: 'redirect_uris', message: `must name at most ${MAX_REDIRECT_URIS} redirect URIs` });
        command.redirectUris.forEach((uri, i) => {
          const problem = redirectUriProblem(uri);
          if (problem) details.push({ path: `redirect_uris.${i}`, message: problem });
        });
        if (new Set(command.redirectUris).size !== command.redirectUris.length)
          details.push({ path: 'redirect_uris', message: 'must not repeat a redirect URI' });
        if ((command.clientType === 'public') !== (command.secretHash === null))
          details.push({ path: 'client_type', message: 'a confidential client has a secret, a public one none' });
        // A public client has no secret: the verifier is all that binds the code to it.
        if (command.clientType === 'public' && command.pkce !== 'required')
          details.push({ path: 'pkce', message: 'a public client must always use PKCE' });
        if (details.length) throw Errors.validation(details);
        return [
          {
            type: 'OAuthClientRegistered',
            data: {
              client_id: command.clientId,
              account_id: command.accountId,
              name,
              redirect_uris: [...command.redirectUris],
              client_type: command.clientType,
              secret_hash: command.secretHash,
              pkce: command.pkce,
              registered_at: command.now.toISOString(),
              by: command.by,
            },
          },
        ];
      }
      case 'RotateOAuthClientSecret': {
        // Another account's client is as unknown as a missing one.
        if (state.status !== 'active' || state.accountId !== command.accountId) throw notFound();
        if (state.clientType === 'public')
          throw Errors.conflict('A public client has no secret to rotate.', 'OAUTH_CLIENT_PUBLIC');
        return [
          {
            type: 'OAuthClientSecretRotated',
            data: {
              client_id: state.clientId,
              secret_hash: command.secretHash,
              rotated_at: command.now.toISOString(),
              by: command.by,
            },
          },
        ];
      }
      case 'SetOAuthClientPkce': {
        if (state.status !== 'active' || state.accountId !== command.accountId) throw notFound();
        if (state.clientType === 'public' && command.pkce !== 'required')
          throw Errors.conflict('A public client must always use PKCE.', 'OAUTH_CLIENT_PUBLIC');
        if (state.pkce === command.pkce) return [];
        return [
          {
            type: 'OAuthClientPkceChanged',
            data: {
              client_id: state.clientId,
              pkce: command.pkce,
              changed_at: command.now.toISOString(),
              by: command.by,
            },
          },
        ];
      }
      case 'DeleteOAuthClient': {
        if (state.status !== 'active' || state.accountId !== command.accountId) throw notFound();
        return [
          {
            type: 'OAuthClientDeleted',
            data: { client_id: state.clientId, deleted_at: command.now.toISOString(), by: command.by },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
