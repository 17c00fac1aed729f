import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReadModelCatchUp } from './read-model.catch-up.js';

function runner() {
  const calls: Array<{ position: number; projections?: string[] }> = [];
  let behind = false;
  return {
    calls,
    setBehind: (b: boolean) => (behind = b),
    waitFor: (position: number, options?: { projections?: string[]; timeoutMs?: number }) => {
      calls.push({ position, projections: options?.projections });
      return behind ? Promise.reject(new Error('timed out')) : Promise.resolve();
    },
  };
}

describe('read model catch-up', () => {
  it('waits for the highest position noted, in its own projection; nothing to wait for at 0', async () => {
    const r = runner();
    const c = new ReadModelCatchUp(r, 'webhooks', () => undefined);
    assert.equal(await c.caughtUp(), true);
    assert.deepEqual(r.calls, [], 'position 0: nothing asked');
    c.note(7);
    c.note(3);
    assert.equal(c.wantedPosition, 7);
    assert.equal(await c.caughtUp(), true);
    assert.deepEqual(r.calls, [{ position: 7, projections: ['webhooks'] }]);
  });

  it('says false while behind, warns once per stretch behind', async () => {
    const r = runner();
    const warnings: string[] = [];
    const c = new ReadModelCatchUp(r, 'webhooks', (m) => warnings.push(m));
    c.note(5);
    r.setBehind(true);
    assert.equal(await c.caughtUp(), false);
    assert.equal(await c.caughtUp(), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /behind position 5/);
    r.setBehind(false);
    assert.equal(await c.caughtUp(), true);
    r.setBehind(true);
    assert.equal(await c.caughtUp(), false);
    assert.equal(warnings.length, 2, 'a new stretch behind warns again');
  });
});
