import type { KeyEnvironment } from '../keys/api-key-format.js';

/** Which API surface issued the key; a key works only there (D1). */
export type KeySurface = 'platform' | 'agent';

/** Stored event types of `apikey-{id}` streams. Names are stable: never rename. */
export type ApiKeyEvent =
  | {
      type: 'ApiKeyCreated';
      data: {
        key_id: string;
        account_id: string;
        name: string;
        scopes: string[];
        /** SHA-256 hex of the key value; the value itself is never stored. */
        key_hash: string;
        display_prefix: string;
        surface: KeySurface;
        environment: KeyEnvironment;
        /** Key that created this one, or null for the bootstrap key and the CLI. */
        created_by: string | null;
        created_at: string;
      };
    }
  | {
      type: 'ApiKeyRevoked';
      data: { key_id: string; account_id: string; revoked_by: string | null; revoked_at: string };
    };

export const API_KEY_EVENT_TYPES: ApiKeyEvent['type'][] = ['ApiKeyCreated', 'ApiKeyRevoked'];

export const apiKeyStream = (keyId: string) => `apikey-${keyId}`;
