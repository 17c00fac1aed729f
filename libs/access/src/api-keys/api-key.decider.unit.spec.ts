import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { apiKeyDecider, type ApiKeyCommand } from './api-key.decider.js';
import type { ApiKeyEvent } from './api-key.events.js';

const spec = deciderSpec(apiKeyDecider);
const now = new Date('2026-03-01T10:00:00Z');
const admin = { keyId: 'key_admin', accountId: 'acct_1', scopes: ['admin'] };
const reader = { keyId: 'key_reader', accountId: 'acct_1', scopes: ['read'] };

const create = (over: Partial<Extract<ApiKeyCommand, { type: 'CreateApiKey' }>> = {}): ApiKeyCommand => ({
  type: 'CreateApiKey',
  keyId: 'key_1',
  accountId: 'acct_1',
  name: 'CI',
  scopes: ['read', 'agents:run'],
  keyHash: 'h'.repeat(64),
  displayPrefix: 'svc_test_AbCd',
  surface: 'platform',
  environment: 'test',
  creator: admin,
  now,
  ...over,
});

const created: ApiKeyEvent = {
  type: 'ApiKeyCreated',
  data: {
    key_id: 'key_1',
    account_id: 'acct_1',
    name: 'CI',
    scopes: ['read', 'agents:run'],
    key_hash: 'h'.repeat(64),
    display_prefix: 'svc_test_AbCd',
    surface: 'platform',
    environment: 'test',
    created_by: 'key_admin',
    created_at: now.toISOString(),
  },
};

describe('API key decider', () => {
  it('creates a key with the requested scopes', () => spec.given([]).when(create()).then([created]));

  it('rejects unknown, repeated and missing scopes with one detail each', () => {
    spec
      .given([])
      .when(create({ scopes: ['read', 'root'] }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'scopes.1');
    spec
      .given([])
      .when(create({ scopes: [] }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED');
    spec
      .given([])
      .when(create({ scopes: ['read', 'read'] }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED');
  });

  it('cannot grant a scope its creator lacks (403 naming the scope)', () =>
    spec
      .given([])
      .when(create({ scopes: ['write'], creator: reader }))
      .thenThrows(
        (e) => e.kind === 'forbidden' && e.code === 'INSUFFICIENT_SCOPE' && e.extra.required_scope === 'write',
      ));

  it('refuses any key to an OAuth access token, admin or not (403 OAUTH_TOKEN_CANNOT_CREATE_KEYS)', () =>
    spec
      .given([])
      .when(create({ scopes: ['read'], creator: { ...admin, keyId: 'grant_1', credential: 'oauth_token' } }))
      .thenThrows((e) => e.kind === 'forbidden' && e.code === 'OAUTH_TOKEN_CANNOT_CREATE_KEYS'));

  it('lets a write key grant read (write implies read), and the operator grant anything', () => {
    spec
      .given([])
      .when(create({ scopes: ['read'], creator: { keyId: 'key_w', accountId: 'acct_1', scopes: ['write'] } }))
      .then([{ ...created, data: { ...created.data, scopes: ['read'], created_by: 'key_w' } }]);
    spec
      .given([])
      .when(create({ scopes: ['admin'], creator: { operator: true } }))
      .then([{ ...created, data: { ...created.data, scopes: ['admin'], created_by: null } }]);
  });

  it('revokes an active key of the same account', () =>
    spec
      .given([created])
      .when({ type: 'RevokeApiKey', keyId: 'key_1', requester: admin, now })
      .then([
        {
          type: 'ApiKeyRevoked',
          data: { key_id: 'key_1', account_id: 'acct_1', revoked_by: 'key_admin', revoked_at: now.toISOString() },
        },
      ]));

  it('answers 404 for a revoked key, a missing key and another account’s key', () => {
    const revoked: ApiKeyEvent = {
      type: 'ApiKeyRevoked',
      data: { key_id: 'key_1', account_id: 'acct_1', revoked_by: null, revoked_at: now.toISOString() },
    };
    spec
      .given([created, revoked])
      .when({ type: 'RevokeApiKey', keyId: 'key_1', requester: admin, now })
      .thenThrows((e) => e.kind === 'not_found');
    spec
      .given([])
      .when({ type: 'RevokeApiKey', keyId: 'key_1', requester: admin, now })
      .thenThrows((e) => e.kind === 'not_found');
    spec
      .given([created])
      .when({ type: 'RevokeApiKey', keyId: 'key_1', requester: { ...admin, accountId: 'acct_2' }, now })
      .thenThrows((e) => e.code === 'KEY_NOT_FOUND');
  });
});
