import { assertNever, type Decider } from '#kernel';
import type { BootstrapEvent } from './bootstrap.events.js';

export type BootstrapCommand =
  | { type: 'ClaimBootstrap'; accountId: string; keyId: string; now: Date }
  | { type: 'CompleteBootstrap'; keyId: string; now: Date };

export type BootstrapState =
  { status: 'unclaimed' } | { status: 'claimed' | 'completed'; accountId: string; keyId: string };

/**
 * D4: the first start of a store creates one account and admin key. The claim is the race
 * breaker between processes: only the append that creates the stream wins; a store claimed
 * already gets nothing (no error), so every other process simply goes on.
 */
export const bootstrapDecider: Decider<BootstrapCommand, BootstrapEvent, BootstrapState> = {
  initialState: { status: 'unclaimed' },

  evolve(state, event) {
    switch (event.type) {
      case 'BootstrapClaimed':
        return { status: 'claimed', accountId: event.data.account_id, keyId: event.data.key_id };
      case 'BootstrapCompleted':
        return state.status === 'unclaimed' ? state : { ...state, status: 'completed', keyId: event.data.key_id };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ClaimBootstrap':
        if (state.status !== 'unclaimed') return [];
        return [
          {
            type: 'BootstrapClaimed',
            data: { account_id: command.accountId, key_id: command.keyId, claimed_at: command.now.toISOString() },
          },
        ];
      case 'CompleteBootstrap':
        if (state.status !== 'claimed') return [];
        return [
          {
            type: 'BootstrapCompleted',
            data: { account_id: state.accountId, key_id: command.keyId, completed_at: command.now.toISOString() },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
