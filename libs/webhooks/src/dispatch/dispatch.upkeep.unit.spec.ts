import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DispatchUpkeep, RECONCILE_EVERY_MS, RECOVER_EVERY_MS, SWEEP_EVERY_MS } from './dispatch.upkeep.js';

function upkeep() {
  let t = 1_000_000;
  const done: string[] = [];
  const u = new DispatchUpkeep({
    reconcileDisables: () => Promise.resolve(void done.push('reconcile')),
    recoverInterrupted: () => Promise.resolve(void done.push('recover')),
    prune: (now) => done.push(`prune ${now}`),
    leases: { sweep: () => Promise.resolve(void done.push('sweep')) },
    now: () => t,
  });
  return { u, done, advance: (ms: number) => (t += ms), now: () => t };
}

describe('dispatch upkeep', () => {
  it('runs each chore at once, then again only when its period is up', async () => {
    const { u, done, advance } = upkeep();
    await u.whenDue();
    assert.deepEqual(done.splice(0), ['reconcile', 'recover']);
    await u.whenDue();
    assert.deepEqual(done.splice(0), []);
    advance(RECOVER_EVERY_MS + 1);
    await u.whenDue();
    assert.deepEqual(done.splice(0), ['recover']);
    advance(RECONCILE_EVERY_MS);
    await u.whenDue();
    assert.deepEqual(done.splice(0), ['reconcile', 'recover']);
  });

  it('prunes on every call and sweeps the leases once a minute', async () => {
    const { u, done, advance, now } = upkeep();
    u.prune();
    assert.deepEqual(done.splice(0), [`prune ${now()}`]);
    advance(SWEEP_EVERY_MS + 1);
    u.prune();
    await Promise.resolve();
    assert.deepEqual(done.splice(0), [`prune ${now()}`, 'sweep']);
    u.prune();
    assert.deepEqual(done.splice(0), [`prune ${now()}`]);
  });
});
