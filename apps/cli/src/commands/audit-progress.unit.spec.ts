import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventStore, RecordedEvent } from '#eventstore';
import { auditDeliveriesCommand, withReplayProgress } from './audit.command.js';

/** A store of `count` events at positions 1..count; only what the audit reads of it. */
function store(count: number) {
  return {
    async headPosition() {
      return count;
    },
    async *readAll() {
      for (let position = 1; position <= count; position++)
        yield { position, stream: `s-${position}`, revision: 0, type: 'Noted', data: {} } as unknown as RecordedEvent;
    },
  } satisfies Pick<EventStore, 'readAll' | 'headPosition'>;
}

/** A clock that moves `stepMs` each time it is read: a progress line every few events. */
const steppingClock = (stepMs: number) => {
  let t = 0;
  return () => (t += stepMs);
};

describe('svc audit: progress on stderr against a total, a closing line', () => {
  it('deliveries: the total first, then the position reached about once a second, then done', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await auditDeliveriesCommand(
      store(10),
      [],
      { kind: 'audit-deliveries' },
      { out: async (l) => void out.push(l), err: async (l) => void err.push(l), now: steppingClock(400) },
    );
    assert.equal(code, 0);
    assert.deepEqual(out, [], 'stdout holds only the lines of webhooks (none here)');
    assert.equal(err[0], "svc audit deliveries: replaying the webhook engine's events in $all, 10 events");
    const progress = err.slice(1, -1);
    assert.ok(progress.length >= 2, err.join('\n'));
    const positions = progress.map((line) => {
      const m = /^svc audit deliveries: at position (\d+) of 10 \((\d+)%\), (\d+) webhook event\(s\) replayed$/.exec(
        line,
      );
      assert.ok(m, line);
      assert.equal(Number(m[2]), Number(m[1]) * 10, 'the percentage of the total');
      return Number(m[1]);
    });
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
      'positions only grow',
    );
    assert.equal(err.at(-1), 'svc audit deliveries: done, 0 webhook(s) replayed, 0 with schedule breaks');
  });

  it('no progress line when the replay takes less than a second', async () => {
    const err: string[] = [];
    await auditDeliveriesCommand(
      store(10),
      [],
      { kind: 'audit-deliveries' },
      { out: async () => {}, err: async (l) => void err.push(l), now: () => 0 },
    );
    assert.equal(err.length, 2, err.join('\n'));
  });

  it('the watched store is the store itself for everything but readAll', async () => {
    const inner = store(3);
    const watched = withReplayProgress(inner, { label: 'x', head: 3, err: async () => {}, done: () => '' });
    assert.equal(await watched.headPosition(), 3);
    const seen: number[] = [];
    for await (const e of watched.readAll()) seen.push(e.position);
    assert.deepEqual(seen, [1, 2, 3]);
  });
});
