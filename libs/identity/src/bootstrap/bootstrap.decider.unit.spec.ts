import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { bootstrapDecider } from './bootstrap.decider.js';
import type { BootstrapEvent } from './bootstrap.events.js';

const spec = deciderSpec(bootstrapDecider);
const now = new Date('2026-03-01T10:00:00Z');
const claimed: BootstrapEvent = {
  type: 'BootstrapClaimed',
  data: { account_id: 'acct_1', key_id: 'key_1', claimed_at: now.toISOString() },
};
const completed: BootstrapEvent = {
  type: 'BootstrapCompleted',
  data: { account_id: 'acct_1', key_id: 'key_1', completed_at: now.toISOString() },
};

describe('bootstrap decider (D4)', () => {
  it('claims an unclaimed store with the ids to create', () =>
    spec.given([]).when({ type: 'ClaimBootstrap', accountId: 'acct_1', keyId: 'key_1', now }).then([claimed]));

  it('does nothing (no error) when the store is claimed or bootstrapped already', () => {
    spec.given([claimed]).when({ type: 'ClaimBootstrap', accountId: 'acct_2', keyId: 'key_2', now }).then([]);
    spec
      .given([claimed, completed])
      .when({ type: 'ClaimBootstrap', accountId: 'acct_2', keyId: 'key_2', now })
      .then([]);
  });

  it('completes a claim once, with the key actually issued', () => {
    spec
      .given([claimed])
      .when({ type: 'CompleteBootstrap', keyId: 'key_9', now })
      .then([{ ...completed, data: { ...completed.data, key_id: 'key_9' } }]);
    spec.given([claimed, completed]).when({ type: 'CompleteBootstrap', keyId: 'key_1', now }).then([]);
    spec.given([]).when({ type: 'CompleteBootstrap', keyId: 'key_1', now }).then([]);
  });
});
