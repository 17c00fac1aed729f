import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { oauthClientDecider, redirectUriProblem } from './oauth-client.decider.js';
import type { OAuthClientEvent } from './oauth-client.events.js';

const spec = deciderSpec(oauthClientDecider);
const now = new Date('2026-03-01T10:00:00Z');
const later = new Date('2026-03-02T10:00:00Z');
const register = (over: Record<string, unknown> = {}) => ({
  type: 'RegisterOAuthClient' as const,
  clientId: 'oac_1',
  accountId: 'acct_1',
  name: ' My app ',
  redirectUris: ['https://app.example/callback', 'http://127.0.0.1:8080/cb'],
  clientType: 'confidential' as const,
  secretHash: 'a'.repeat(64),
  pkce: 'required' as const,
  by: 'usr_1',
  now,
  ...over,
});
const registered: OAuthClientEvent = {
  type: 'OAuthClientRegistered',
  data: {
    client_id: 'oac_1',
    account_id: 'acct_1',
    name: 'My app',
    redirect_uris: ['https://app.example/callback', 'http://127.0.0.1:8080/cb'],
    client_type: 'confidential',
    secret_hash: 'a'.repeat(64),
    pkce: 'required',
    registered_at: now.toISOString(),
    by: 'usr_1',
  },
};
const publicRegistered: OAuthClientEvent = {
  type: 'OAuthClientRegistered',
  data: { ...registered.data, client_type: 'public', secret_hash: null } as never,
};
/** Recorded before clients had a PKCE setting: no `pkce` field. */
const registeredBeforePkce: OAuthClientEvent = {
  type: 'OAuthClientRegistered',
  data: (({ pkce: _pkce, ...rest }) => rest)(registered.data),
};
const setPkce = (pkce: 'required' | 'optional', over: Record<string, unknown> = {}) => ({
  type: 'SetOAuthClientPkce' as const,
  accountId: 'acct_1',
  pkce,
  by: 'usr_1',
  now: later,
  ...over,
});
const pkceChanged = (pkce: 'required' | 'optional'): OAuthClientEvent => ({
  type: 'OAuthClientPkceChanged',
  data: { client_id: 'oac_1', pkce, changed_at: later.toISOString(), by: 'usr_1' },
});
const deleted: OAuthClientEvent = {
  type: 'OAuthClientDeleted',
  data: { client_id: 'oac_1', deleted_at: later.toISOString(), by: 'usr_1' },
};

describe('OAuth client decider', () => {
  it('registers a confidential client with its name trimmed, its redirect URIs and the secret hash', () =>
    spec.given([]).when(register()).then([registered]));

  it('registers a public client without a secret', () =>
    spec
      .given([])
      .when(register({ clientType: 'public', secretHash: null }))
      .then([publicRegistered]));

  it('refuses a second registration, an empty name, no or bad redirect URIs, and a secret that does not fit the type', () => {
    spec
      .given([registered])
      .when(register())
      .thenThrows((e) => e.code === 'OAUTH_CLIENT_EXISTS');
    spec
      .given([])
      .when(register({ name: '  ' }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'name');
    spec
      .given([])
      .when(register({ redirectUris: [] }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'redirect_uris');
    spec
      .given([])
      .when(register({ redirectUris: ['https://a.example/cb', 'http://evil.example/cb'] }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'redirect_uris.1');
    spec
      .given([])
      .when(register({ redirectUris: ['https://a.example/cb', 'https://a.example/cb'] }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED');
    spec
      .given([])
      .when(register({ clientType: 'public' }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'client_type');
    spec
      .given([])
      .when(register({ secretHash: null }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'client_type');
  });

  it('requires PKCE by default; a confidential client may be registered with it optional, a public one never', () => {
    spec
      .given([])
      .when(register({ pkce: 'optional' }))
      .then([{ ...registered, data: { ...registered.data, pkce: 'optional' } } as OAuthClientEvent]);
    spec
      .given([])
      .when(register({ clientType: 'public', secretHash: null, pkce: 'optional' }))
      .thenThrows(
        (e) =>
          e.code === 'VALIDATION_FAILED' &&
          e.extra.details.length === 1 &&
          e.extra.details[0].path === 'pkce' &&
          /public client must always use PKCE/.test(e.extra.details[0].message),
      );
    // A client registered before the setting existed requires PKCE: requiring it changes nothing.
    spec.given([registeredBeforePkce]).when(setPkce('required')).then([]);
    spec
      .given([registeredBeforePkce])
      .when(setPkce('optional'))
      .then([pkceChanged('optional')]);
  });

  it('lets its own confidential client skip PKCE and require it again; never a public client', () => {
    spec
      .given([registered])
      .when(setPkce('optional'))
      .then([pkceChanged('optional')]);
    spec
      .given([registered, pkceChanged('optional')])
      .when(setPkce('optional'))
      .then([]);
    spec
      .given([registered, pkceChanged('optional')])
      .when(setPkce('required'))
      .then([pkceChanged('required')]);
    spec
      .given([publicRegistered])
      .when(setPkce('optional'))
      .thenThrows((e) => e.kind === 'conflict' && e.code === 'OAUTH_CLIENT_PUBLIC');
    spec.given([publicRegistered]).when(setPkce('required')).then([]);
    spec
      .given([registered])
      .when(setPkce('optional', { accountId: 'acct_2' }))
      .thenThrows((e) => e.kind === 'not_found' && e.code === 'OAUTH_CLIENT_NOT_FOUND');
    spec
      .given([registered, deleted])
      .when(setPkce('optional'))
      .thenThrows((e) => e.kind === 'not_found');
  });

  it('rotates the secret of its own confidential client only', () => {
    spec
      .given([registered])
      .when({
        type: 'RotateOAuthClientSecret',
        accountId: 'acct_1',
        secretHash: 'b'.repeat(64),
        by: 'usr_1',
        now: later,
      })
      .then([
        {
          type: 'OAuthClientSecretRotated',
          data: { client_id: 'oac_1', secret_hash: 'b'.repeat(64), rotated_at: later.toISOString(), by: 'usr_1' },
        },
      ]);
    spec
      .given([registered])
      .when({
        type: 'RotateOAuthClientSecret',
        accountId: 'acct_2',
        secretHash: 'b'.repeat(64),
        by: 'usr_2',
        now: later,
      })
      .thenThrows((e) => e.kind === 'not_found' && e.code === 'OAUTH_CLIENT_NOT_FOUND');
    spec
      .given([publicRegistered])
      .when({
        type: 'RotateOAuthClientSecret',
        accountId: 'acct_1',
        secretHash: 'b'.repeat(64),
        by: 'usr_1',
        now: later,
      })
      .thenThrows((e) => e.code === 'OAUTH_CLIENT_PUBLIC');
    spec
      .given([registered, deleted])
      .when({
        type: 'RotateOAuthClientSecret',
        accountId: 'acct_1',
        secretHash: 'b'.repeat(64),
        by: 'usr_1',
        now: later,
      })
      .thenThrows((e) => e.kind === 'not_found');
  });

  it('deletes its own client once; another account or a second delete finds nothing', () => {
    spec
      .given([registered])
      .when({ type: 'DeleteOAuthClient', accountId: 'acct_1', by: 'usr_1', now: later })
      .then([deleted]);
    spec
      .given([registered, deleted])
      .when({ type: 'DeleteOAuthClient', accountId: 'acct_1', by: 'usr_1', now: later })
      .thenThrows((e) => e.kind === 'not_found');
    spec
      .given([registered])
      .when({ type: 'DeleteOAuthClient', accountId: 'acct_2', by: 'usr_2', now: later })
      .thenThrows((e) => e.kind === 'not_found');
  });

  it('accepts https and loopback http redirect URIs only, without fragments, user info or wildcards', () => {
    for (const ok of [
      'https://app.example/cb?x=1',
      'http://localhost:3000/cb',
      'http://127.0.0.1/cb',
      'http://[::1]:9/cb',
    ])
      assert.equal(redirectUriProblem(ok), undefined, ok);
    for (const bad of [
      '',
      'cb',
      '/cb',
      'http://app.example/cb',
      'https://app.example/cb#x',
      'https://u:p@app.example/',
      'https://*.example/cb',
      'javascript:alert(1)',
    ])
      assert.ok(redirectUriProblem(bad), bad);
  });
});
