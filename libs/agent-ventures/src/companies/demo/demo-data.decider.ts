import { assertNever, type Decider } from '#kernel';
import type { DemoDataEvent } from '../company.events.js';

type Claim = Extract<DemoDataEvent, { type: 'DemoCompaniesClaimed' }>['data'];

export type DemoDataState = { status: 'fresh' } | { status: 'claimed'; claim: Claim } | { status: 'done' };

export type DemoDataCommand =
  /** Claim the seeding of a store; a store that has companies already is skipped for good. */
  | { type: 'ClaimDemoData'; storeHasCompanies: boolean; seed: number; count: number; now: Date }
  | { type: 'CompleteDemoData'; imported: number; updated: number; unchanged: number; now: Date };

/**
 * D20, once per store (stream `demo-companies`): the first claim wins (the append that creates
 * the stream; a process that loses re-decides on the winner's claim and gets nothing), a claim
 * is completed once, and a store with companies of its own is never seeded.
 */
export const demoDataDecider: Decider<DemoDataCommand, DemoDataEvent, DemoDataState> = {
  initialState: { status: 'fresh' },

  evolve(state, event) {
    switch (event.type) {
      case 'DemoCompaniesClaimed':
        return state.status === 'fresh' ? { status: 'claimed', claim: event.data } : state;
      case 'DemoCompaniesSeeded':
      case 'DemoCompaniesSkipped':
        return { status: 'done' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'ClaimDemoData':
        if (state.status !== 'fresh') return [];
        if (command.storeHasCompanies)
          return [{ type: 'DemoCompaniesSkipped', data: { reason: 'the store already has companies', at } }];
        return [
          {
            type: 'DemoCompaniesClaimed',
            data: { seed: command.seed, count: command.count, as_of: at.slice(0, 10), at },
          },
        ];
      case 'CompleteDemoData':
        if (state.status !== 'claimed') return [];
        return [
          {
            type: 'DemoCompaniesSeeded',
            data: {
              seed: state.claim.seed,
              count: state.claim.count,
              imported: command.imported,
              updated: command.updated,
              unchanged: command.unchanged,
              at,
            },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
