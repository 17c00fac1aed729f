/**
 * Stored event types of `oauthgrant-{grant id}` streams: the audit trail of one authorization
 * (ADR 0066). Token values never appear here, only what was issued, when and until when.
 * Names are stable: never rename.
 */
export type OAuthGrantEvent =
  | {
      type: 'OAuthGrantApproved';
      data: {
        grant_id: string;
        client_id: string;
        account_id: string;
        user_id: string;
        scopes: string[];
        approved_at: string;
      };
    }
  | {
      type: 'OAuthTokensIssued';
      data: {
        grant_id: string;
        client_id: string;
        scopes: string[];
        access_token_expires_at: string;
        refresh_token_expires_at: string | null;
        issued_at: string;
      };
    }
  | {
      type: 'OAuthRefreshTokenRotated';
      data: {
        grant_id: string;
        client_id: string;
        scopes: string[];
        access_token_expires_at: string;
        refresh_token_expires_at: string | null;
        rotated_at: string;
      };
    }
  | {
      type: 'OAuthTokenReuseDetected';
      data: {
        grant_id: string;
        client_id: string;
        token_type: 'authorization_code' | 'refresh_token';
        detected_at: string;
      };
    }
  | {
      type: 'OAuthTokenRevoked';
      data: { grant_id: string; client_id: string; token_type: 'access_token' | 'refresh_token'; revoked_at: string };
    }
  | {
      type: 'OAuthGrantRevoked';
      data: { grant_id: string; client_id: string; reason: OAuthGrantRevocationReason; revoked_at: string };
    };

/** Why every token of a grant stopped: the client revoked a refresh token, or one was used twice. */
export type OAuthGrantRevocationReason = 'token_revoked' | 'reuse_detected';

export const OAUTH_GRANT_EVENT_TYPES: OAuthGrantEvent['type'][] = [
  'OAuthGrantApproved',
  'OAuthTokensIssued',
  'OAuthRefreshTokenRotated',
  'OAuthTokenReuseDetected',
  'OAuthTokenRevoked',
  'OAuthGrantRevoked',
];

export const oauthGrantStream = (grantId: string) => `oauthgrant-${grantId}`;
