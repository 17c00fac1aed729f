import { createHash, randomBytes } from 'node:crypto';

export type OAuthClientType = 'confidential' | 'public';

/**
 * Whether the client must send an S256 `code_challenge` (ADR 0075). `optional` is an explicit
 * opt-out for a confidential client that cannot send one; a public client is always `required`.
 */
export type OAuthClientPkce = 'required' | 'optional';

/** Stored event types of `oauthclient-{oac_id}` streams. Names are stable: never rename. */
export type OAuthClientEvent =
  | {
      type: 'OAuthClientRegistered';
      data: {
        client_id: string;
        account_id: string;
        name: string;
        redirect_uris: string[];
        client_type: OAuthClientType;
        /** SHA-256 (hex) of the secret; null for a public client. The secret itself is shown once. */
        secret_hash: string | null;
        /** Absent on events recorded before the setting existed: `required`. */
        pkce?: OAuthClientPkce;
        registered_at: string;
        /** A user id, or `operator` (the CLI). */
        by: string;
      };
    }
  | {
      type: 'OAuthClientSecretRotated';
      data: { client_id: string; secret_hash: string; rotated_at: string; by: string };
    }
  | {
      type: 'OAuthClientPkceChanged';
      data: { client_id: string; pkce: OAuthClientPkce; changed_at: string; by: string };
    }
  | { type: 'OAuthClientDeleted'; data: { client_id: string; deleted_at: string; by: string } };

export const OAUTH_CLIENT_EVENT_TYPES: OAuthClientEvent['type'][] = [
  'OAuthClientRegistered',
  'OAuthClientSecretRotated',
  'OAuthClientPkceChanged',
  'OAuthClientDeleted',
];

export const oauthClientStream = (clientId: string) => `oauthclient-${clientId}`;

/** A client secret: `ocs_` and 32 random bytes (base64url); only its SHA-256 is stored. */
export function generateClientSecret(): string {
  return `ocs_${randomBytes(32).toString('base64url')}`;
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
