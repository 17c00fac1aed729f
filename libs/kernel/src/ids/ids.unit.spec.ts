import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../clock/clock.port.js';
import { IdGenerator, isId } from './ids.js';

describe('IdGenerator', () => {
  it('makes prefixed ids that sort in creation order, within and across milliseconds', () => {
    const clock = new FakeClock('2026-05-01T00:00:00Z');
    const ids = new IdGenerator(clock);
    const made: string[] = [];
    for (let i = 0; i < 50; i++) made.push(ids.next('acct'));
    clock.advance(1);
    for (let i = 0; i < 50; i++) made.push(ids.next('acct'));
    assert.deepEqual([...made].sort(), made);
    assert.equal(new Set(made).size, made.length);
    for (const id of made) assert.ok(isId(id, 'acct'), id);
  });

  it('rejects ids of another prefix or shape', () => {
    const ids = new IdGenerator(new FakeClock());
    assert.equal(isId(ids.next('wh'), 'acct'), false);
    assert.equal(isId('acct_short'), false);
  });
});
