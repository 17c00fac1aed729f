import type { KeySurface } from './api-key.events.js';

/**
 * Whether a key may be issued to an account. Accounts belong to the products (the platform's
 * accounts and plans, the agent surface's agent accounts), so access asks through this port.
 */
export interface KeyAccounts {
  /** Throws the product's not-found error when the account cannot hold keys of that surface. */
  assertCanHoldKeys(surface: KeySurface, accountId: string): Promise<void>;
}

export const KEY_ACCOUNTS = Symbol('KEY_ACCOUNTS');
