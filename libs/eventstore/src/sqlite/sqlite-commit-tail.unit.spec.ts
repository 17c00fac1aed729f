import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '../event-store.port.js';
import { type CommittedEvent, SqliteCommitTail } from './sqlite-commit-tail.js';

const committed = (position: number, type = 'T', stream = 's-1'): CommittedEvent => ({
  id: `id-${position}`,
  stream,
  revision: position,
  position,
  type,
  dataJson: JSON.stringify({ n: position }),
  metadataJson: position % 2 === 0 ? JSON.stringify({ even: true }) : null,
  created: '2026-01-01T00:00:00.000Z',
});
/** What a reader gets for `committed(...)`. */
const event = (position: number, type = 'T', stream = 's-1'): RecordedEvent => ({
  id: `id-${position}`,
  stream,
  revision: position,
  position,
  type,
  data: { n: position },
  metadata: position % 2 === 0 ? { even: true } : {},
  created: '2026-01-01T00:00:00.000Z',
});
const positions = (page: { events: RecordedEvent[] } | null) => page?.events.map((e) => e.position) ?? null;

describe('SqliteCommitTail', () => {
  it('answers a read that starts inside contiguous commits, across them', () => {
    const tail = new SqliteCommitTail(100);
    tail.add(10, [committed(11), committed(12)]);
    tail.add(12, [committed(13)]);
    assert.deepEqual(positions(tail.read(10, undefined, 100)), [11, 12, 13]);
    assert.deepEqual(positions(tail.read(11, undefined, 100)), [12, 13]);
    assert.deepEqual(tail.read(12, undefined, 100), { events: [event(13)], scannedTo: 13, full: false });
  });

  it('answers nothing it cannot vouch for: before the tail, at its end, or across another writer', () => {
    const tail = new SqliteCommitTail(100);
    tail.add(10, [committed(11)]);
    tail.add(15, [committed(16)]); // 12..15 were committed by another process
    assert.equal(tail.read(9, undefined, 100), null, 'older than the tail');
    assert.equal(tail.read(16, undefined, 100), null, 'at the end: something newer may exist elsewhere');
    assert.deepEqual(
      tail.read(10, undefined, 100),
      { events: [event(11)], scannedTo: 11, full: true },
      'stops at the gap: read on at once',
    );
    assert.equal(tail.read(11, undefined, 100), null, 'the gap itself is read from the store');
    assert.deepEqual(positions(tail.read(15, undefined, 100)), [16]);
  });

  it('filters by type and stream prefix and still reports how far it looked', () => {
    const tail = new SqliteCommitTail(100);
    tail.add(0, [
      committed(1, 'AccountOpened', 'account-1'),
      committed(2, 'MeterCharged', 'credits-1'),
      committed(3, 'AccountClosed', 'account-2'),
    ]);
    assert.deepEqual(tail.read(0, { eventTypePrefixes: ['Meter'] }, 100), {
      events: [event(2, 'MeterCharged', 'credits-1')],
      scannedTo: 3,
      full: false,
    });
    assert.deepEqual(positions(tail.read(0, { streamPrefixes: ['account-'] }, 100)), [1, 3]);
    assert.deepEqual(tail.read(0, { eventTypePrefixes: ['Nothing'] }, 100), { events: [], scannedTo: 3, full: false });
  });

  it('stops a page at the limit', () => {
    const tail = new SqliteCommitTail(100);
    tail.add(0, [committed(1), committed(2), committed(3)]);
    assert.deepEqual(tail.read(0, undefined, 2), { events: [event(1), event(2)], scannedTo: 2, full: true });
  });

  it('parses an event once, on first delivery, and shares it', () => {
    const tail = new SqliteCommitTail(100);
    const first = committed(1);
    tail.add(0, [first, committed(2)]);
    assert.equal(first.recorded, undefined, 'nothing parsed before anyone reads');
    const a = tail.read(0, { eventTypePrefixes: ['Nothing'] }, 10);
    assert.equal(first.recorded, undefined, 'a filter that rejects it does not parse it');
    assert.deepEqual(a?.events, []);
    const b = tail.read(0, undefined, 10)!;
    const c = tail.read(0, undefined, 10)!;
    assert.deepEqual(b.events, [event(1), event(2)]);
    assert.equal(b.events[0], c.events[0], 'the same object for every reader');
  });

  it('keeps about maxEvents, and always the newest commit', () => {
    const tail = new SqliteCommitTail(3);
    tail.add(0, [committed(1), committed(2)]);
    tail.add(2, [committed(3), committed(4)]);
    assert.equal(tail.read(0, undefined, 10), null, 'the oldest commit was dropped');
    assert.deepEqual(positions(tail.read(2, undefined, 10)), [3, 4]);
    tail.add(4, [committed(5), committed(6), committed(7), committed(8)]);
    assert.deepEqual(
      positions(tail.read(4, undefined, 10)),
      [5, 6, 7, 8],
      'a commit bigger than the bound is still kept',
    );
  });
});
