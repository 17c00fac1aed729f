import { assertNever, type Decider, Errors } from '#kernel';
import type { OAuthGrantEvent, OAuthGrantRevocationReason } from './oauth-grant.events.js';

export type OAuthGrantCommand = { grantId: string; clientId: string; now: Date } & (
  | { type: 'ApproveGrant'; accountId: string; userId: string; scopes: string[] }
  | {
      type: 'RecordTokensIssued';
      grantType: 'authorization_code' | 'refresh_token';
      scopes: string[];
      accessTokenExpiresAt: Date;
      refreshTokenExpiresAt: Date | null;
    }
  | { type: 'RecordTokenReuse'; tokenType: 'authorization_code' | 'refresh_token' }
  | { type: 'RecordTokenRevoked'; tokenType: 'access_token' | 'refresh_token' }
  | { type: 'RevokeGrant'; reason: OAuthGrantRevocationReason }
);

export type OAuthGrantState =
  { status: 'absent' } | { status: 'active' | 'revoked'; clientId: string; accountId: string };

/**
 * The audit of one grant. oidc-provider decides who gets a token; this records what it did, in
 * order. The rules kept here: a grant is approved once; revoking a revoked grant records
 * nothing more (a reuse and the revocation it causes may race); a revoked grant issues nothing.
 */
export const oauthGrantDecider: Decider<OAuthGrantCommand, OAuthGrantEvent, OAuthGrantState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'OAuthGrantApproved':
        return { status: 'active', clientId: event.data.client_id, accountId: event.data.account_id };
      case 'OAuthGrantRevoked':
        return state.status === 'absent' ? state : { ...state, status: 'revoked' };
      case 'OAuthTokensIssued':
      case 'OAuthRefreshTokenRotated':
      case 'OAuthTokenReuseDetected':
      case 'OAuthTokenRevoked':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const base = { grant_id: command.grantId, client_id: command.clientId };
    const at = command.now.toISOString();
    switch (command.type) {
      case 'ApproveGrant':
        if (state.status !== 'absent') throw Errors.conflict('The grant exists already.', 'OAUTH_GRANT_EXISTS');
        return [
          {
            type: 'OAuthGrantApproved',
            data: {
              ...base,
              account_id: command.accountId,
              user_id: command.userId,
              scopes: [...command.scopes],
              approved_at: at,
            },
          },
        ];
      case 'RecordTokensIssued': {
        if (state.status === 'revoked') throw Errors.conflict('The grant is revoked.', 'OAUTH_GRANT_REVOKED');
        const tokens = {
          scopes: [...command.scopes],
          access_token_expires_at: command.accessTokenExpiresAt.toISOString(),
          refresh_token_expires_at: command.refreshTokenExpiresAt?.toISOString() ?? null,
        };
        return command.grantType === 'authorization_code'
          ? [{ type: 'OAuthTokensIssued', data: { ...base, ...tokens, issued_at: at } }]
          : [{ type: 'OAuthRefreshTokenRotated', data: { ...base, ...tokens, rotated_at: at } }];
      }
      case 'RecordTokenReuse':
        return [{ type: 'OAuthTokenReuseDetected', data: { ...base, token_type: command.tokenType, detected_at: at } }];
      case 'RecordTokenRevoked':
        return [{ type: 'OAuthTokenRevoked', data: { ...base, token_type: command.tokenType, revoked_at: at } }];
      case 'RevokeGrant':
        if (state.status === 'revoked') return [];
        return [{ type: 'OAuthGrantRevoked', data: { ...base, reason: command.reason, revoked_at: at } }];
      default:
        return assertNever(command);
    }
  },
};
