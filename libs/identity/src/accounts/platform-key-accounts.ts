import { Inject, Injectable } from '@nestjs/common';
import type { KeyAccounts, KeySurface } from '#access';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { Errors } from '#kernel';
import { accountDecider } from './account.decider.js';
import { accountStream } from './account.events.js';

/**
 * KEY_ACCOUNTS: a platform key needs an active platform account. Agent-surface keys belong to
 * the agent side's accounts (agent-billing), which that feature checks before it asks for a key.
 */
@Injectable()
export class PlatformKeyAccounts implements KeyAccounts {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async assertCanHoldKeys(surface: KeySurface, accountId: string): Promise<void> {
    if (surface !== 'platform') return;
    const { state } = await loadState(this.events, accountStream(accountId), accountDecider);
    if (state.status !== 'active') throw Errors.notFound('No such account.', 'ACCOUNT_NOT_FOUND');
  }
}
