import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ANY,
  AccessDeniedError,
  DeadlineExceededError,
  EVENT_TYPE,
  NO_STREAM,
  STREAM_EXISTS,
  STREAM_NAME,
  UnavailableError,
  WrongExpectedVersionError,
  type PrefixesFilter,
  type RegexFilter,
} from '@eventstore/db-client';
import { EventStoreUnavailableError, WrongExpectedRevisionError } from '../event-store.port.js';
import {
  acceptAll,
  fromEsdbPosition,
  isTransientEsdbError,
  mapEsdbError,
  normaliseConnectionString,
  planAllFilter,
  toAppendExpectedRevision,
  toEsdbPosition,
  toRecordedEvent,
} from './esdb-mapping.js';

describe('EventStoreDB mapping', () => {
  it('maps expected revisions', () => {
    assert.equal(toAppendExpectedRevision('any'), ANY);
    assert.equal(toAppendExpectedRevision('no_stream'), NO_STREAM);
    assert.equal(toAppendExpectedRevision('stream_exists'), STREAM_EXISTS);
    assert.equal(toAppendExpectedRevision(0), 0n);
    assert.equal(toAppendExpectedRevision(41), 41n);
    assert.throws(() => toAppendExpectedRevision(-1), /expected revision/);
    assert.throws(() => toAppendExpectedRevision(1.5), /expected revision/);
  });

  it('maps a wrong expected version to the port error with the actual revision', () => {
    const existing = new WrongExpectedVersionError(undefined, { streamName: 's-1', expected: 3n, current: 7n });
    const mapped = mapEsdbError(existing, { stream: 's-1', expected: 3 });
    assert.ok(mapped instanceof WrongExpectedRevisionError);
    assert.equal(mapped.stream, 's-1');
    assert.equal(mapped.expected, 3);
    assert.equal(mapped.actual, 7);

    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 's-2',
      expected: STREAM_EXISTS,
      current: NO_STREAM,
    });
    const mapped2 = mapEsdbError(missing);
    assert.ok(mapped2 instanceof WrongExpectedRevisionError);
    assert.equal(mapped2.stream, 's-2');
    assert.equal(mapped2.expected, 'stream_exists');
    assert.equal(mapped2.actual, null);
  });

  it('maps an unreachable server to EventStoreUnavailableError and leaves other errors alone', () => {
    assert.ok(mapEsdbError(new UnavailableError()) instanceof EventStoreUnavailableError);
    assert.ok(mapEsdbError(new DeadlineExceededError()) instanceof EventStoreUnavailableError);
    // A raw gRPC status error, as the client's server-features probe rejects with.
    const raw = Object.assign(new Error('14 UNAVAILABLE: No connection established'), {
      code: 14,
      details: 'No connection established',
    });
    assert.ok(mapEsdbError(raw) instanceof EventStoreUnavailableError);
    const denied = new AccessDeniedError();
    assert.equal(mapEsdbError(denied), denied);
    const bug = new TypeError('bug');
    assert.equal(mapEsdbError(bug), bug);
    assert.equal(isTransientEsdbError(denied), false);
    assert.equal(isTransientEsdbError(bug), false);
    assert.equal(isTransientEsdbError(new UnavailableError()), true);
  });

  it('maps positions: commit position as a number, {commit, prepare} rebuilt for reads', () => {
    assert.equal(fromEsdbPosition({ commit: 1234n, prepare: 1234n }), 1234);
    assert.equal(fromEsdbPosition(undefined), null);
    assert.equal(
      fromEsdbPosition({ commit: 18446744073709551615n, prepare: 18446744073709551615n }),
      null,
      'no position',
    );
    assert.deepEqual(toEsdbPosition(1234), { commit: 1234n, prepare: 1234n });
    assert.throws(() => toEsdbPosition(-1), RangeError);
    assert.throws(() => toEsdbPosition(0.5), RangeError);
  });

  it('normalises KurrentDB connection-string schemes for the client', () => {
    assert.equal(normaliseConnectionString('esdb://h:2113?tls=false'), 'esdb://h:2113?tls=false');
    assert.equal(normaliseConnectionString('kurrentdb://h:2113?tls=false'), 'esdb://h:2113?tls=false');
    assert.equal(normaliseConnectionString('kurrentdb+discover://h:2113'), 'esdb+discover://h:2113');
  });

  it('plans subscription filters: one prefix list on the server, the rest and system events here', () => {
    const none = planAllFilter(undefined);
    assert.equal(none.server.filterOn, EVENT_TYPE);
    assert.equal((none.server as RegexFilter).regex, '^[^$].*');

    const types = planAllFilter({ eventTypePrefixes: ['Order'] });
    assert.equal(types.server.filterOn, EVENT_TYPE);
    assert.deepEqual((types.server as PrefixesFilter).prefixes, ['Order']);

    const streams = planAllFilter({ streamPrefixes: ['orders-'], eventTypePrefixes: [] });
    assert.equal(streams.server.filterOn, STREAM_NAME);
    assert.deepEqual((streams.server as PrefixesFilter).prefixes, ['orders-']);

    const both = planAllFilter({ eventTypePrefixes: ['Order'], streamPrefixes: ['orders-'] });
    assert.equal(both.server.filterOn, EVENT_TYPE);
    assert.equal(both.accept({ type: 'OrderPlaced', streamId: 'orders-1' }), true);
    assert.equal(both.accept({ type: 'OrderPlaced', streamId: 'carts-1' }), false, 'stream prefix checked client-side');
    assert.equal(both.accept({ type: 'CartOpened', streamId: 'orders-1' }), false);

    const counted = planAllFilter({ eventTypePrefixes: ['Order'] }, { clientOnly: true });
    assert.equal((counted.server as RegexFilter).regex, '^[^$].*', 'checkpoints: the server only drops system events');
    assert.equal(counted.accept({ type: 'OrderPlaced', streamId: 'orders-1' }), true);
    assert.equal(counted.accept({ type: 'CartOpened', streamId: 'carts-1' }), false, 'so the type filter runs here');

    const dollar = planAllFilter({ eventTypePrefixes: ['$'] });
    assert.equal(dollar.accept({ type: '$metadata', streamId: '$$orders-1' }), false, 'system events never pass');
  });

  it('filters readAll on the client, excluding system events', () => {
    const accept = acceptAll({ streamPrefixes: ['orders-'] });
    assert.equal(accept({ type: 'OrderPlaced', streamId: 'orders-1' }), true);
    assert.equal(accept({ type: 'OrderPlaced', streamId: 'carts-1' }), false);
    assert.equal(acceptAll(undefined)({ type: '$statsCollected', streamId: '$stats-1' }), false);
    assert.equal(acceptAll(undefined)({ type: 'Anything', streamId: '$scavenges' }), false);
    assert.equal(acceptAll(undefined)({ type: 'Anything', streamId: 'x' }), true);
  });

  it('maps a recorded event to the port shape', () => {
    const recorded = toRecordedEvent(
      {
        streamId: 'orders-1',
        id: '6f1c3a52-5b4e-4d4c-9a57-2f6f1f0b8a11',
        revision: 3n,
        type: 'OrderPlaced',
        created: new Date('2026-02-03T04:05:06.789Z'),
        data: { total: 12 },
        metadata: { correlationId: 'c1' },
        position: { commit: 99n, prepare: 99n },
      },
      99,
    );
    assert.deepEqual(recorded, {
      id: '6f1c3a52-5b4e-4d4c-9a57-2f6f1f0b8a11',
      stream: 'orders-1',
      revision: 3,
      position: 99,
      type: 'OrderPlaced',
      data: { total: 12 },
      metadata: { correlationId: 'c1' },
      created: '2026-02-03T04:05:06.789Z',
    });
    const bare = toRecordedEvent({ ...recordedBase(), metadata: new Uint8Array([1]) }, 5);
    assert.deepEqual(bare.metadata, {}, 'non-JSON metadata reads as {}');
  });
});

function recordedBase() {
  return {
    streamId: 's',
    id: '6f1c3a52-5b4e-4d4c-9a57-2f6f1f0b8a11',
    revision: 0n,
    type: 'T',
    created: new Date(0),
    data: null,
  };
}
