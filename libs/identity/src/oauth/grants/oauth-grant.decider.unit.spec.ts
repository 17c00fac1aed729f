import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { oauthGrantDecider } from './oauth-grant.decider.js';
import type { OAuthGrantEvent } from './oauth-grant.events.js';

const spec = deciderSpec(oauthGrantDecider);
const now = new Date('2026-03-01T10:00:00Z');
const at = now.toISOString();
const base = { grantId: 'g1', clientId: 'oac_1', now };
const approved: OAuthGrantEvent = {
  type: 'OAuthGrantApproved',
  data: {
    grant_id: 'g1',
    client_id: 'oac_1',
    account_id: 'acct_1',
    user_id: 'usr_1',
    scopes: ['read'],
    approved_at: at,
  },
};
const revoked: OAuthGrantEvent = {
  type: 'OAuthGrantRevoked',
  data: { grant_id: 'g1', client_id: 'oac_1', reason: 'reuse_detected', revoked_at: at },
};
const issue = (grantType: 'authorization_code' | 'refresh_token') => ({
  ...base,
  type: 'RecordTokensIssued' as const,
  grantType,
  scopes: ['read'],
  accessTokenExpiresAt: new Date(now.getTime() + 3600_000),
  refreshTokenExpiresAt: new Date(now.getTime() + 30 * 86_400_000),
});
const tokens = {
  grant_id: 'g1',
  client_id: 'oac_1',
  scopes: ['read'],
  access_token_expires_at: '2026-03-01T11:00:00.000Z',
  refresh_token_expires_at: '2026-03-31T10:00:00.000Z',
};

describe('OAuth grant decider (the audit of one grant)', () => {
  it('approves a grant once', () => {
    spec
      .given([])
      .when({ ...base, type: 'ApproveGrant', accountId: 'acct_1', userId: 'usr_1', scopes: ['read'] })
      .then([approved]);
    spec
      .given([approved])
      .when({ ...base, type: 'ApproveGrant', accountId: 'acct_1', userId: 'usr_1', scopes: ['read'] })
      .thenThrows((e) => e.code === 'OAUTH_GRANT_EXISTS');
  });

  it('records the code exchange as an issue, a refresh as a rotation', () => {
    spec
      .given([approved])
      .when(issue('authorization_code'))
      .then([{ type: 'OAuthTokensIssued', data: { ...tokens, issued_at: at } }]);
    spec
      .given([approved])
      .when(issue('refresh_token'))
      .then([{ type: 'OAuthRefreshTokenRotated', data: { ...tokens, rotated_at: at } }]);
  });

  it('records a reuse, then the revocation it causes once: a second revocation adds nothing', () => {
    spec
      .given([approved])
      .when({ ...base, type: 'RecordTokenReuse', tokenType: 'refresh_token' })
      .then([
        {
          type: 'OAuthTokenReuseDetected',
          data: { grant_id: 'g1', client_id: 'oac_1', token_type: 'refresh_token', detected_at: at },
        },
      ]);
    spec
      .given([approved])
      .when({ ...base, type: 'RevokeGrant', reason: 'reuse_detected' })
      .then([revoked]);
    spec
      .given([approved, revoked])
      .when({ ...base, type: 'RevokeGrant', reason: 'token_revoked' })
      .then([]);
  });

  it('records a token revocation; a revoked grant issues nothing more', () => {
    spec
      .given([approved])
      .when({ ...base, type: 'RecordTokenRevoked', tokenType: 'access_token' })
      .then([
        {
          type: 'OAuthTokenRevoked',
          data: { grant_id: 'g1', client_id: 'oac_1', token_type: 'access_token', revoked_at: at },
        },
      ]);
    spec
      .given([approved, revoked])
      .when(issue('refresh_token'))
      .thenThrows((e) => e.code === 'OAUTH_GRANT_REVOKED');
  });
});
