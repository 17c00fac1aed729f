import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AttemptsDoc, type AttemptsPolicy, countAttempt, PER_ADDRESS, PER_EMAIL } from './sign-in-throttle.js';

const start = Date.parse('2026-03-01T10:00:00.000Z');

/** Attempts one after another, each as soon as the count allows: the refusals' waits in seconds. */
function run(policy: AttemptsPolicy, attempts: number): { waits: number[]; last: AttemptsDoc | null; at: number } {
  let stored: AttemptsDoc | null = null;
  let at = start;
  const waits: number[] = [];
  for (let taken = 0; taken < attempts;) {
    const result = countAttempt('k', stored, policy, new Date(at));
    if ('refused' in result) {
      waits.push(result.refused.retryAfterSeconds);
      at += result.refused.retryAfterSeconds * 1000;
    } else {
      stored = result.next;
      taken++;
    }
  }
  return { waits, last: stored, at };
}

describe('countAttempt (ADR 0072)', () => {
  it('per address: waits of 1, 2, 4, … from the third attempt, then the tenth locks for 15 minutes', () => {
    const { waits, last, at } = run(PER_ADDRESS, 10);
    assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 64]);
    const locked = countAttempt('k', last, PER_ADDRESS, new Date(at + 64_000 * 2));
    assert.ok('refused' in locked && locked.refused.reason === 'locked');
    assert.ok('next' in countAttempt('k', last, PER_ADDRESS, new Date(at + 15 * 60_000)), 'over after 15 minutes');
  });

  it('per email: no wait before the twentieth, then 1, 2, 4, … capped at a minute, and never a lock', () => {
    const { waits, last } = run(PER_EMAIL, 40);
    assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, ...Array(14).fill(60)]);
    assert.equal(last?.locked_until, null);
  });

  it('forgets a count 15 minutes after its last attempt', () => {
    const { last, at } = run(PER_EMAIL, 25);
    const later = countAttempt('k', last, PER_EMAIL, new Date(at + 15 * 60_000 + 1));
    assert.ok('next' in later);
    assert.equal(later.next.attempts, 1);
    assert.equal(later.next.version, last!.version + 1, 'still written over the stored one (compare-and-set)');
  });
});
