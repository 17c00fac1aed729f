import { AppError, assertNever, Errors, type Decider } from '#kernel';
import { type KeyEnvironment } from '../keys/api-key-format.js';
import { grants, insufficientScope, isScope, SCOPES } from '../auth/scopes.js';
import type { ApiKeyEvent, KeySurface } from './api-key.events.js';

/**
 * Who asks: a key or a signed-in user (with its scopes), an OAuth access token (`credential`,
 * `keyId` its grant), or the operator (bootstrap, CLI), who may grant anything.
 */
export type Creator =
  { keyId: string; accountId: string; scopes: string[]; credential?: 'oauth_token' } | { operator: true };

/**
 * A key minted through an OAuth grant would outlive the grant's revocation (a key lives until it
 * is revoked itself): OAuth access tokens do not create keys, whatever their scopes (ADR 0075).
 */
export function oauthTokenCannotCreateKeys(): AppError {
  return new AppError(
    'forbidden',
    'OAUTH_TOKEN_CANNOT_CREATE_KEYS',
    'An OAuth access token cannot create API keys: a key would outlive the grant. Create keys with an API key or in the dashboard.',
  );
}

export type ApiKeyCommand =
  | {
      type: 'CreateApiKey';
      keyId: string;
      accountId: string;
      name: string;
      scopes: string[];
      keyHash: string;
      displayPrefix: string;
      surface: KeySurface;
      environment: KeyEnvironment;
      creator: Creator;
      now: Date;
    }
  | { type: 'RevokeApiKey'; keyId: string; requester: Creator; now: Date };

export type ApiKeyState =
  { status: 'absent' } | { status: 'active' | 'revoked'; keyId: string; accountId: string; scopes: string[] };

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated':
        return {
          status: 'active',
          keyId: event.data.key_id,
          accountId: event.data.account_id,
          scopes: event.data.scopes,
        };
      case 'ApiKeyRevoked':
        return state.status === 'absent' ? state : { ...state, status: 'revoked' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey': {
        if (state.status !== 'absent') throw Errors.conflict('The key exists already.', 'KEY_EXISTS');
        if ('credential' in command.creator && command.creator.credential === 'oauth_token')
          throw oauthTokenCannotCreateKeys();
        const name = command.name.trim();
        const details = [];
        if (name.length < 1 || name.length > 100)
          details.push({ path: 'name', message: 'must be 1 to 100 characters' });
        if (command.scopes.length === 0) details.push({ path: 'scopes', message: 'must name at least one scope' });
        command.scopes.forEach((s, i) => {
          if (!isScope(s))
            details.push({ path: `scopes.${i}`, message: `unknown scope "${s}"; allowed: ${SCOPES.join(', ')}` });
        });
        if (new Set(command.scopes).size !== command.scopes.length)
          details.push({ path: 'scopes', message: 'must not repeat a scope' });
        if (details.length) throw Errors.validation(details);
        const creator = command.creator;
        if (!('operator' in creator)) {
          // A key cannot grant what its creator lacks (admin implies all).
          for (const s of command.scopes) if (isScope(s) && !grants(creator.scopes, s)) throw insufficientScope(s);
          if (creator.accountId !== command.accountId) throw Errors.notFound('No such account.', 'ACCOUNT_NOT_FOUND');
        }
        return [
          {
            type: 'ApiKeyCreated',
            data: {
              key_id: command.keyId,
              account_id: command.accountId,
              name,
              scopes: [...command.scopes],
              key_hash: command.keyHash,
              display_prefix: command.displayPrefix,
              surface: command.surface,
              environment: command.environment,
              created_by: 'operator' in creator ? null : creator.keyId,
              created_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'RevokeApiKey': {
        const requester = command.requester;
        // Another account's key is indistinguishable from a missing one; a revoked key is gone.
        if (state.status !== 'active' || (!('operator' in requester) && requester.accountId !== state.accountId)) {
          throw Errors.notFound('No such API key.', 'KEY_NOT_FOUND');
        }
        return [
          {
            type: 'ApiKeyRevoked',
            data: {
              key_id: state.keyId,
              account_id: state.accountId,
              revoked_by: 'operator' in requester ? null : requester.keyId,
              revoked_at: command.now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
